/**
 * Photo checks of the booking dialog (spec sections 2, 5 and 9). Pure, so they are easy to test. The rules
 * themselves (types, 5 MB, 5 or 3 files) and their messages are the kernel's (issue 13): the booking service
 * refuses exactly what the dialog refuses, in the same words.
 */
import { isPhotoMimeType, PHOTO_MAX_BYTES, PHOTO_MESSAGES, type PhotoProblem } from '@tyres/kernel';

export {
  maxPhotos,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_FILES,
  PHOTO_MAX_FILES_UNKNOWN_SIZE,
  PHOTO_MAX_MB,
  PHOTO_MESSAGES,
  PHOTO_MIME_TYPES,
  PHOTO_TYPE_NAMES,
  type PhotoProblem,
} from '@tyres/kernel';

/** Thumbnail labels are cut at this many characters. */
export const PHOTO_NAME_MAX = 15;

/**
 * A batch of new files: if it would push the total above the maximum the whole batch is rejected; otherwise
 * files of the wrong type or too large are skipped one by one and the rest are accepted.
 */
export function checkPhotoBatch(
  existingCount: number,
  incoming: readonly File[],
  max: number,
): { accepted: File[]; problems: PhotoProblem[]; skipped: { name: string; reason: string }[] } {
  if (incoming.length === 0) return { accepted: [], problems: [], skipped: [] };
  if (existingCount + incoming.length > max) {
    return { accepted: [], problems: [PHOTO_MESSAGES.count(max)], skipped: [] };
  }
  const accepted: File[] = [];
  const skipped: { name: string; reason: string }[] = [];
  let badType = false;
  let tooLarge = false;
  for (const file of incoming) {
    if (!isPhotoMimeType(file.type)) {
      badType = true;
      skipped.push({ name: file.name, reason: PHOTO_MESSAGES.type.description });
    } else if (file.size > PHOTO_MAX_BYTES) {
      tooLarge = true;
      skipped.push({ name: file.name, reason: PHOTO_MESSAGES.size.description });
    } else {
      accepted.push(file);
    }
  }
  const problems: PhotoProblem[] = [];
  if (badType) problems.push(PHOTO_MESSAGES.type);
  if (tooLarge) problems.push(PHOTO_MESSAGES.size);
  return { accepted, problems, skipped };
}

/** Thumbnail label: the file name cut to 15 characters with an ellipsis. */
export function photoLabel(name: string): string {
  return name.length > PHOTO_NAME_MAX ? `${name.slice(0, PHOTO_NAME_MAX)}...` : name;
}
