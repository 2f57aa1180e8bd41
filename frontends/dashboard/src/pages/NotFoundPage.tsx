import { useNavigate } from 'react-router-dom';
import { Button, Result } from 'antd';
import type { BusinessInfo } from '@tyres/platform';

/** Spec section 2, admin routes: anything else is a 404. */
export function NotFoundPage({ business, homePath }: { business: BusinessInfo; homePath: string }) {
  const navigate = useNavigate();
  return (
    <main className="dash-center">
      <title>{`Page Not Found | ${business.name}`}</title>
      <meta name="robots" content="noindex" />
      <Result
        status="404"
        title={<h1 className="dash-result-title">Page Not Found</h1>}
        subTitle="Sorry, the page you're looking for doesn't exist or has been moved."
        extra={
          <Button type="primary" size="large" onClick={() => navigate(homePath)}>
            Back to Dashboard
          </Button>
        }
      />
    </main>
  );
}
