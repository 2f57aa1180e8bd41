import type { Key, ReactNode } from 'react';
import { Pagination, Table, type TableColumnsType, type TableProps } from 'antd';
import { useIsMobile } from '../hooks/useIsMobile';
import { EmptyState } from './EmptyState';
import { QueryError } from './QueryError';

const TABLE_MIN_WIDTH = 900;

/** What the list needs to know of its query (a react-query result fits). */
export interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

export interface ListPagination {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
  /** Desktop only: "1-25 of 40 jobs". */
  showTotal?: (total: number, range: [number, number]) => ReactNode;
}

/**
 * One list, read the same way on every tab: a table on desktop, cards on a phone (or cards only, for lists without
 * columns), and the same states everywhere:
 * - failed: the error with Retry;
 * - first load: "Loading ..." (phone) or the table's loading overlay;
 * - nothing: the empty state;
 * - another page or filter on its way: the rows stay, dimmed, and the list says it is busy;
 * - a background refresh: the list says it is busy, nothing moves.
 */
export function ResponsiveList<T extends object>({
  query,
  items,
  rowKey,
  errorTitle,
  loadingText,
  emptyText,
  columns,
  renderCard,
  cardsClassName,
  cardsHeader,
  pagination,
  rowSelection,
  tableSize,
}: {
  query: ListQuery;
  items: readonly T[];
  rowKey: (item: T) => string;
  errorTitle: string;
  loadingText: string;
  emptyText: string;
  /** Desktop table columns; without them the list is cards on every screen. */
  columns?: TableColumnsType<T>;
  /** One card, as an <li>. */
  renderCard: (item: T) => ReactNode;
  cardsClassName?: string;
  /** Above the cards, once there are some (e.g. "Select all"). */
  cardsHeader?: ReactNode;
  pagination?: ListPagination;
  rowSelection?: { selectedRowKeys: readonly string[]; onChange: (keys: string[]) => void };
  tableSize?: TableProps<T>['size'];
}) {
  const isMobile = useIsMobile();
  const stale = query.isPlaceholderData;

  if (query.isError)
    return <QueryError title={errorTitle} error={query.error} onRetry={() => void query.refetch()} />;

  if (isMobile || !columns) {
    const paged = pagination && pagination.total > pagination.pageSize;
    return (
      <>
        {query.isPending ? (
          <div className="dash-loading" role="status" aria-live="polite">
            {loadingText}
          </div>
        ) : items.length === 0 ? (
          <EmptyState text={emptyText} />
        ) : (
          <>
            {cardsHeader}
            <ul
              className={['dash-cards', cardsClassName, stale ? 'dash-cards--stale' : undefined]
                .filter(Boolean)
                .join(' ')}
              aria-busy={query.isFetching}
            >
              {items.map((item) => renderCard(item))}
            </ul>
          </>
        )}
        {paged && (
          <Pagination
            className="dash-pagination"
            simple
            current={pagination.page}
            pageSize={pagination.pageSize}
            total={pagination.total}
            onChange={pagination.onChange}
            showSizeChanger={false}
          />
        )}
      </>
    );
  }

  return (
    <div className="dash-table-wrap" aria-busy={query.isFetching}>
      <Table<T>
        rowKey={(item) => rowKey(item)}
        size={tableSize}
        columns={columns}
        dataSource={items as T[]}
        // Only the first load shows the overlay; another page keeps the rows and dims them (one cheap class change).
        loading={query.isPending}
        rowClassName={stale ? 'dash-row--stale' : undefined}
        // Narrow desktops scroll the table sideways rather than squeezing its columns.
        scroll={{ x: TABLE_MIN_WIDTH }}
        locale={{ emptyText: query.isPending ? ' ' : <EmptyState text={emptyText} /> }}
        rowSelection={
          rowSelection && {
            selectedRowKeys: rowSelection.selectedRowKeys as Key[],
            onChange: (keys) => rowSelection.onChange(keys.map(String)),
          }
        }
        pagination={
          pagination
            ? {
                current: pagination.page,
                pageSize: pagination.pageSize,
                total: pagination.total,
                showSizeChanger: false,
                hideOnSinglePage: true,
                onChange: pagination.onChange,
                showTotal: pagination.showTotal,
              }
            : false
        }
      />
    </div>
  );
}
