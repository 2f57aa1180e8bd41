import { Empty } from 'antd';

/** Body of a tab that is not built yet, or of an unknown ?tab= value (label omitted). */
export function ComingSoon({ label }: { label?: string }) {
  return (
    <section className="dash-panel dash-coming-soon" aria-label={label ?? 'Coming soon'}>
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <>
            <strong className="dash-coming-soon__title">{label ?? 'Coming soon'}</strong>
            <span className="dash-coming-soon__text">This section is coming soon.</span>
          </>
        }
      />
    </section>
  );
}
