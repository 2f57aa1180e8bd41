import { Image } from 'antd';
import type { Job } from '../api/types';
import { truncate } from '../lib/format';

export const photoUrl = (jobId: string, photoId: string) =>
  `/api/dashboard/jobs/${encodeURIComponent(jobId)}/photos/${encodeURIComponent(photoId)}`;

/** Customer photos of a job: thumbnails that open a viewer (zoom, next/previous) on tap. */
export function JobPhotos({ job }: { job: Job }) {
  const photos = job.photos ?? [];
  return (
    <section className="dash-detail__section" aria-labelledby="jd-photos">
      <h3 id="jd-photos" className="dash-detail__heading">
        Customer Photos {photos.length > 0 && <span className="dash-muted">({photos.length})</span>}
      </h3>
      {photos.length === 0 ? (
        <p className="dash-muted">The customer did not upload any photos.</p>
      ) : (
        <Image.PreviewGroup>
          <ul className="dash-photos">
            {photos.map((photo) => (
              <li key={photo.id} className="dash-photo">
                <Image
                  src={photoUrl(job.id, photo.id)}
                  alt={`Customer photo ${photo.originalName}`}
                  width={96}
                  height={96}
                  style={{ objectFit: 'cover', borderRadius: 8 }}
                  fallback="data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='96' height='96'><rect width='96' height='96' fill='%23e5e7eb'/><text x='48' y='52' font-size='10' text-anchor='middle' fill='%236b7280'>Unavailable</text></svg>"
                />
                <span className="dash-photo__name" title={photo.originalName}>
                  {truncate(photo.originalName, 15)}
                </span>
              </li>
            ))}
          </ul>
        </Image.PreviewGroup>
      )}
    </section>
  );
}
