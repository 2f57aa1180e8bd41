import { isPhotoMimeType, maxPhotos, PHOTO_MAX_BYTES, PHOTO_MESSAGES, PHOTO_MIME_TYPES } from './photos';

describe('photo rules', () => {
  it('take jpeg, png and webp up to 5 MB', () => {
    expect(PHOTO_MIME_TYPES).toEqual(['image/jpeg', 'image/png', 'image/webp']);
    expect(PHOTO_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(isPhotoMimeType('image/webp')).toBe(true);
    expect(isPhotoMimeType('image/gif')).toBe(false);
  });

  it('allow 5 photos, 3 when the tyre size is unknown', () => {
    expect(maxPhotos(true)).toBe(5);
    expect(maxPhotos(false)).toBe(3);
  });

  it('refuse in the spec words', () => {
    expect(PHOTO_MESSAGES.type).toEqual({
      title: 'Invalid file type',
      description: 'Please upload jpeg, png, webp files only.',
    });
    expect(PHOTO_MESSAGES.size).toEqual({
      title: 'File too large',
      description: 'File size must be less than 5MB.',
    });
    expect(PHOTO_MESSAGES.count(3)).toEqual({
      title: 'Too many files',
      description: 'Maximum 3 files allowed.',
    });
  });
});
