import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Alert, Button } from 'antd';

interface BoundaryProps {
  /** The section's name in the message ("Invoices could not be shown."). */
  label: string;
  queryClient: QueryClient;
  children: ReactNode;
}

interface BoundaryState {
  error: Error | null;
}

/**
 * Keeps a failure inside one tab: a tab that throws while rendering shows an error with Retry, while the header, the
 * tab bar and every other tab keep working. React offers error boundaries as class components only.
 */
class Boundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    // Visible to whoever looks at the console; the staff member sees the message below.
    console.error(`The ${this.props.label} tab failed`, error, info.componentStack);
  }

  /**
   * Retry: the queries the failed tab used (unmounted now, so inactive) are reset, and the tab is mounted again,
   * which loads them afresh (reset rather than invalidated: stale data shown during the refetch could throw again).
   * Queries still on screen elsewhere (the header's) are left alone.
   */
  private retry = () => {
    void this.props.queryClient.resetQueries({ type: 'inactive' });
    this.setState({ error: null });
  };

  render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        title={`${this.props.label} could not be shown.`}
        description="Something went wrong in this section. The rest of the dashboard still works."
        action={
          <Button size="small" onClick={this.retry}>
            Retry
          </Button>
        }
      />
    );
  }
}

/** An error boundary around one dashboard tab (key it by the tab, so another tab starts afresh). */
export function TabErrorBoundary({ label, children }: { label: string; children: ReactNode }) {
  const queryClient = useQueryClient();
  return (
    <Boundary label={label} queryClient={queryClient}>
      {children}
    </Boundary>
  );
}
