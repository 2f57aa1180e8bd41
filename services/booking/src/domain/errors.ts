import { HttpError } from '@tyres/service-kit';
import { MSG } from './messages';

/** Photo rejections carry the spec's toast title as `error` and its description as `message`. */
export const photoTypeError = () =>
  new HttpError(400, MSG.photoType, 'invalid_file_type', undefined, { error: MSG.photoTypeTitle });
export const photoSizeError = () =>
  new HttpError(400, MSG.photoSize, 'file_too_large', undefined, { error: MSG.photoSizeTitle });
export const photoCountError = (max: number) =>
  new HttpError(400, MSG.photoCount(max), 'too_many_files', undefined, { error: MSG.photoCountTitle });
