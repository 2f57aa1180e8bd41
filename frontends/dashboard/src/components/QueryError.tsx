import { Alert, Button } from 'antd';
import { errorMessage } from '@tyres/platform';

/** A failed load: the screen's message, the server's explanation when it gave one, and Retry. */
export function QueryError({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry?: () => void;
}) {
  const detail = errorMessage(error, error instanceof Error ? error.message : '');
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={title}
      description={detail || undefined}
      action={
        onRetry ? (
          <Button size="small" onClick={onRetry}>
            Retry
          </Button>
        ) : undefined
      }
    />
  );
}
