/**
 * Photo rules of a booking (product spec sections 2, 5 and 9), written once for the booking service, which enforces
 * them, and the public booking dialog, which checks them before uploading (issue 13): jpeg, png or webp; 5 MB each;
 * 5 files, or 3 when the tyre size is unknown. Browser-safe.
 */
export const PHOTO_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type PhotoMimeType = (typeof PHOTO_MIME_TYPES)[number];
/** The types as the messages name them. */
export const PHOTO_TYPE_NAMES = 'jpeg, png, webp';
export const PHOTO_MAX_MB = 5;
export const PHOTO_MAX_BYTES = PHOTO_MAX_MB * 1024 * 1024;
export const PHOTO_MAX_FILES = 5;
export const PHOTO_MAX_FILES_UNKNOWN_SIZE = 3;

/** How many photos a booking may carry. */
export const maxPhotos = (tyreSizeKnown: boolean): number =>
  tyreSizeKnown ? PHOTO_MAX_FILES : PHOTO_MAX_FILES_UNKNOWN_SIZE;

export const isPhotoMimeType = (value: string): value is PhotoMimeType =>
  (PHOTO_MIME_TYPES as readonly string[]).includes(value);

/** A refusal as the dialog's toast and the service's error show it. */
export interface PhotoProblem {
  title: string;
  description: string;
}

export const PHOTO_MESSAGES = {
  type: { title: 'Invalid file type', description: `Please upload ${PHOTO_TYPE_NAMES} files only.` },
  size: { title: 'File too large', description: `File size must be less than ${PHOTO_MAX_MB}MB.` },
  count: (max: number): PhotoProblem => ({
    title: 'Too many files',
    description: `Maximum ${max} files allowed.`,
  }),
} as const;
