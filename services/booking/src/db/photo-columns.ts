/** The photo columns events and answers need (never the bytes). */
export const PHOTO_COLUMNS = {
  id: true,
  jobId: true,
  type: true,
  filename: true,
  originalName: true,
  mimeType: true,
  size: true,
  uploadedAt: true,
} as const;
