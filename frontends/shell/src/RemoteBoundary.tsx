import { Component, type ErrorInfo, type ReactNode } from 'react';
import type { BusinessInfo } from '@tyres/platform';

function isChunkLoadError(error: Error | null): boolean {
  return (
    !!error && (error.name === 'ChunkLoadError' || /Loading (CSS )?chunk \S+ failed/.test(error.message))
  );
}

interface Props {
  /** Label used in logs, e.g. "public". */
  name: string;
  business: BusinessInfo;
  onRetry: () => void;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * Catches a remote that cannot be loaded (or crashes) and offers Retry instead of a blank page, plus the phone
 * number: a customer at the roadside on a bad connection can still call. Plain markup styled by index.html, so
 * it shows even when nothing but the shell could be downloaded.
 */
export class RemoteBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[shell] remote "${this.props.name}" failed`, error, info.componentStack);
  }

  private retry = (): void => {
    // A chunk that is gone (a new release replaced it) cannot come back by asking again: when online,
    // reload the page to pick up the new manifest. Anything else (remote unreachable, offline, a
    // crash) is retried in place.
    if (isChunkLoadError(this.state.error) && navigator.onLine) {
      window.location.reload();
      return;
    }
    this.props.onRetry();
    this.setState({ error: null });
  };

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    const { phone, phoneDisplay } = this.props.business;
    return (
      <main className="shell-fatal" role="alert">
        <h1>Sorry, this page couldn&apos;t be loaded</h1>
        <p>Please check your internet connection and try again.</p>
        <div className="shell-fatal__actions">
          <button type="button" onClick={this.retry}>
            Retry
          </button>
          {phone && (
            <a className="shell-fatal__call" href={`tel:${phone}`}>
              Call {phoneDisplay ?? phone}
            </a>
          )}
        </div>
      </main>
    );
  }
}
