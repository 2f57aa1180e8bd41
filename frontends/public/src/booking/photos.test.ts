import { checkPhotoBatch, maxPhotos, PHOTO_MAX_BYTES, photoLabel } from './photos';

const file = (name: string, type = 'image/jpeg', size = 1000) => {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

describe('photo rules (spec sections 2, 5, 9)', () => {
  test('5 photos, or 3 when the tyre size is unknown', () => {
    expect(maxPhotos(true)).toBe(5);
    expect(maxPhotos(false)).toBe(3);
  });

  test('a batch that would pass the maximum is rejected whole', () => {
    const result = checkPhotoBatch(3, [file('a.jpg'), file('b.jpg'), file('c.jpg')], 5);
    expect(result.accepted).toEqual([]);
    expect(result.problems).toEqual([{ title: 'Too many files', description: 'Maximum 5 files allowed.' }]);
    expect(
      checkPhotoBatch(0, [file('1.jpg'), file('2.jpg'), file('3.jpg'), file('4.jpg')], 3).problems[0],
    ).toEqual({
      title: 'Too many files',
      description: 'Maximum 3 files allowed.',
    });
  });

  test('wrong types and files over 5 MB are skipped one by one, the rest accepted', () => {
    const ok = file('ok.png', 'image/png');
    const webp = file('ok.webp', 'image/webp');
    const gif = file('anim.gif', 'image/gif');
    const big = file('huge.jpg', 'image/jpeg', PHOTO_MAX_BYTES + 1);
    const result = checkPhotoBatch(0, [ok, gif, big, webp], 5);
    expect(result.accepted).toEqual([ok, webp]);
    expect(result.problems).toEqual([
      { title: 'Invalid file type', description: 'Please upload jpeg, png, webp files only.' },
      { title: 'File too large', description: 'File size must be less than 5MB.' },
    ]);
    expect(result.skipped.map((s) => s.name)).toEqual(['anim.gif', 'huge.jpg']);
  });

  test('exactly 5 MB is allowed; filling up to the maximum is allowed', () => {
    expect(checkPhotoBatch(0, [file('max.jpg', 'image/jpeg', PHOTO_MAX_BYTES)], 5).accepted).toHaveLength(1);
    expect(checkPhotoBatch(4, [file('last.jpg')], 5).accepted).toHaveLength(1);
  });

  test('names are cut to 15 characters with an ellipsis', () => {
    expect(photoLabel('front-left-tyre-photo.png')).toBe('front-left-tyre...');
    expect(photoLabel('short.jpg')).toBe('short.jpg');
    expect(photoLabel('exactly15chars!')).toBe('exactly15chars!');
  });
});
