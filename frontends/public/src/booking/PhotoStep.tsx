import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useToast } from '@tyres/platform/toast';
import { CameraIcon, CloseIcon, ImageIcon } from '../components/icons';
import { checkPhotoBatch, PHOTO_MAX_MB, PHOTO_MIME_TYPES, PHOTO_TYPE_NAMES, photoLabel } from './photos';

export interface PhotoStepProps {
  photos: File[];
  onChange: (photos: File[]) => void;
  max: number;
  tyreSizeKnown: boolean;
  /** Photos added before the page was reloaded (files cannot be kept): the customer is asked to add them again. */
  photosToAddAgain?: number;
  headingId: string;
  headingRef: (el: HTMLHeadingElement | null) => void;
}

function Thumbnail({ file, onRemove }: { file: File; onRemove: () => void }) {
  const url = useMemo(
    () => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : ''),
    [file],
  );
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL?.(url);
    },
    [url],
  );
  return (
    <li className="bk-thumb">
      {url ? <img src={url} alt={file.name} className="bk-thumb__img" /> : <span className="bk-thumb__img" />}
      <span className="bk-thumb__name" title={file.name}>
        {photoLabel(file.name)}
      </span>
      <button
        type="button"
        className="bk-thumb__remove"
        aria-label={`Remove ${file.name}`}
        onClick={onRemove}
      >
        <CloseIcon />
      </button>
    </li>
  );
}

/**
 * Step 5, optional photos (spec sections 2 and 5): Camera (rear camera) or Gallery, or drag and drop with a
 * highlight while a drag is over; thumbnails with a remove button. Limits: jpeg/png/webp, 5 MB each, 5 files
 * (3 when the tyre size is unknown); a batch that would pass the maximum is rejected whole.
 */
export function PhotoStep({
  photos,
  onChange,
  max,
  tyreSizeKnown,
  photosToAddAgain = 0,
  headingId,
  headingRef,
}: PhotoStepProps) {
  const { toast } = useToast();
  const camera = useRef<HTMLInputElement>(null);
  const gallery = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [skipped, setSkipped] = useState<{ name: string; reason: string }[]>([]);
  const depth = useRef(0);

  const add = (incoming: File[]) => {
    const result = checkPhotoBatch(photos.length, incoming, max);
    for (const problem of result.problems) {
      toast({ title: problem.title, description: problem.description, variant: 'destructive' });
    }
    setSkipped(result.skipped);
    if (result.accepted.length > 0) onChange([...photos, ...result.accepted]);
  };

  const onFiles = (list: FileList | null, input: HTMLInputElement | null) => {
    if (list && list.length > 0) add(Array.from(list));
    if (input) input.value = ''; // choosing the same file again still fires change
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    add(Array.from(event.dataTransfer?.files ?? []));
  };

  const accept = PHOTO_MIME_TYPES.join(',');
  const overLimit = photos.length > max;
  return (
    <div className="bk-step">
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="bk-step__title">
        {photos.length > 0 ? 'Add More Photos' : 'Upload Photos'}
      </h3>
      <p className="bk-step__lead">
        Optional. Photos of your tyres help us bring the right gear. <strong>No tyre knowledge needed</strong>{' '}
        – a photo of the tyre sidewall tells us the size.
      </p>
      {photosToAddAgain > 0 && photos.length === 0 && (
        <p className="bk-hint bk-hint--warn">
          The page was reloaded, so the {photosToAddAgain === 1 ? 'photo' : `${photosToAddAgain} photos`} you
          added need to be added again (or skip this step).
        </p>
      )}
      <ul className="bk-tips" aria-label="Photo tips">
        <li>Use good lighting</li>
        <li>Take photos from multiple angles</li>
        <li>Include close-ups of any damage or wear</li>
      </ul>

      <div
        className={`bk-drop${dragging ? ' bk-drop--active' : ''}`}
        data-dragging={dragging || undefined}
        onDragEnter={(event) => {
          event.preventDefault();
          depth.current += 1;
          setDragging(true);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={() => {
          depth.current = Math.max(0, depth.current - 1);
          if (depth.current === 0) setDragging(false);
        }}
        onDrop={onDrop}
      >
        <p className="bk-drop__text">
          {dragging ? 'Drop your photos here' : 'Drag and drop photos here, or choose:'}
        </p>
        <div className="bk-drop__buttons">
          <button type="button" className="pub-btn pub-btn--outline" onClick={() => camera.current?.click()}>
            <CameraIcon /> Camera
          </button>
          <button type="button" className="pub-btn pub-btn--outline" onClick={() => gallery.current?.click()}>
            <ImageIcon /> Gallery
          </button>
        </div>
        <p className="bk-hint">
          {PHOTO_TYPE_NAMES} up to {PHOTO_MAX_MB}MB each, at most {max} photos
          {tyreSizeKnown ? '' : ' (3 when the tyre size is not entered)'}.
        </p>
        <input
          ref={camera}
          type="file"
          accept="image/*"
          capture="environment"
          className="bk-sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="photo-camera-input"
          onChange={(event) => onFiles(event.target.files, event.target)}
        />
        <input
          ref={gallery}
          type="file"
          accept={accept}
          multiple
          className="bk-sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="photo-gallery-input"
          onChange={(event) => onFiles(event.target.files, event.target)}
        />
      </div>

      {skipped.length > 0 && (
        <ul className="bk-skipped" aria-label="Skipped files">
          {skipped.map((s, i) => (
            <li key={`${s.name}-${i}`}>
              {s.name} was not added: {s.reason}
            </li>
          ))}
        </ul>
      )}
      {overLimit && (
        <p className="bk-error" role="alert">
          Maximum {max} files allowed. Please remove {photos.length - max}.
        </p>
      )}

      {photos.length > 0 && (
        <ul
          className="bk-thumbs"
          aria-label={`${photos.length} photo${photos.length === 1 ? '' : 's'} added`}
        >
          {photos.map((file, i) => (
            <Thumbnail
              key={`${file.name}-${file.size}-${i}`}
              file={file}
              onRemove={() => onChange(photos.filter((_, j) => j !== i))}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
