/**
 * Query keys. A key that is only path parts is fetched by the shared default query function (the parts joined
 * by '/'); keys ending in a params object have their own query function. Invalidating a key's first part
 * refreshes every list and item under it.
 */
export const keys = {
  jobsList: (params: { status?: string; scheduleStatus?: string; page: number; pageSize: number }) =>
    ['/api/dashboard/jobs-with-details', params] as const,
  jobsAll: ['/api/dashboard/jobs-with-details'] as const,
  job: (id: string) => ['/api/dashboard/jobs', id] as const,
  jobsRoot: ['/api/dashboard/jobs'] as const,
  technicians: ['/api/dashboard/technicians'] as const,
  purchaseInvoices: (jobId: string) => ['/api/dashboard/purchase-invoices/job', jobId] as const,
  purchaseRoot: ['/api/dashboard/purchase-invoices/job'] as const,
  invoicesList: (params: { search: string; status: string; page: number; pageSize: number }) =>
    ['/api/dashboard/customer-invoices', params] as const,
  invoice: (id: string) => ['/api/dashboard/customer-invoices', id] as const,
  invoicesRoot: ['/api/dashboard/customer-invoices'] as const,
  jobInvoices: (jobId: string) => ['/api/dashboard/customer-invoices/job', jobId] as const,
  jobInvoicesRoot: ['/api/dashboard/customer-invoices/job'] as const,
  expenses: (params: { category: string; paid: string }) =>
    ['/api/dashboard/business-expenses', params] as const,
  expensesRoot: ['/api/dashboard/business-expenses'] as const,
  adminSlots: (date: string) => ['/api/dashboard/timeslots', date] as const,
  adminSlotsRoot: ['/api/dashboard/timeslots'] as const,
  availability: (date: string) => ['/api/time-slots', 'availability', date] as const,
  freeSlots: (date: string) => ['/api/time-slots', date] as const,
  slotsRoot: ['/api/time-slots'] as const,
  users: ['/api/admin/users'] as const,
  report: (
    kind: 'gst' | 'purchases-payables' | 'enhanced-pl',
    range: { startDate: string; endDate: string },
  ) => [`/api/dashboard/reports/${kind}`, range] as const,
};
