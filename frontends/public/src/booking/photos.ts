/** Photo rules of the booking dialog (spec sections 2, 5 and 9). Pure, so they are easy to test. */
export const PHOTO_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const PHOTO_TYPE_NAMES = 'jpeg, png, webp';
export const PHOTO_MAX_MB = 5;
export const PHOTO_MAX_BYTES = PHOTO_MAX_MB * 1024 * 1024;
export const PHOTO_MAX_FILES = 5;
export const PHOTO_MAX_FILES_UNKNOWN_SIZE = 3;
export const PHOTO_NAME_MAX = 15;

export const maxPhotos = (tyreSizeKnown: boolean) =>
  tyreSizeKnown ? PHOTO_MAX_FILES : PHOTO_MAX_FILES_UNKNOWN_SIZE;

export interface PhotoProblem {
  title: string;
  description: string;
}

export const PHOTO_MESSAGES = {
  type: { title: 'Invalid file type', description: `Please upload ${PHOTO_TYPE_NAMES} files only.` },
  size: { title: 'File too large', description: `File size must be less than ${PHOTO_MAX_MB}MB.` },
  count: (max: number) => ({ title: 'Too many files', description: `Maximum ${max} files allowed.` }),
};

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
    if (!(PHOTO_MIME_TYPES as readonly string[]).includes(file.type)) {
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
