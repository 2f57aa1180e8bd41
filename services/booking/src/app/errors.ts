import { HttpError } from '@tyres/service-kit';
import { MSG } from '../domain/messages';

/** Photo rejections carry the spec's toast title as `error` and its description as `message`. */
export const photoTypeError = () =>
  new HttpError(400, MSG.photoType, 'invalid_file_type', undefined, { error: MSG.photoTypeTitle });
export const photoSizeError = () =>
  new HttpError(400, MSG.photoSize, 'file_too_large', undefined, { error: MSG.photoSizeTitle });
export const photoCountError = (max: number) =>
  new HttpError(400, MSG.photoCount(max), 'too_many_files', undefined, { error: MSG.photoCountTitle });

/** An upload that did not arrive whole: the client went away, or its body was not valid multipart. */
export const notMultipartError = () =>
  new HttpError(400, 'Upload the photos as multipart/form-data in the "photos" field.', 'not_multipart');
export const malformedUploadError = () =>
  new HttpError(400, 'The upload was malformed or interrupted. Please try again.', 'malformed_upload');
export const interruptedUploadError = () =>
  new HttpError(400, 'The upload was interrupted. Please try again.', 'upload_aborted');
