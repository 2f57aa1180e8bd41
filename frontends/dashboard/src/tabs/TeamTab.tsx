import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Form, Input, Modal, Select, Tag, type TableColumnsType } from 'antd';
import { useStaffUsers, useUserMutations } from '../api/users';
import { failureReported } from '../api/mutation-toasts';
import type { StaffUser } from '../api/types';
import { ResponsiveList } from '../components/ResponsiveList';
import { Field } from '../components/Field';
import { useDashboard } from '../context';
import { newUserSchema, type NewUserValues } from '../forms/user';
import { useNotify } from '../hooks/useNotify';
import { formatShortDate } from '../lib/dates';

const ROLE_OPTIONS = [
  { value: 'technician', label: 'Technician' },
  { value: 'admin', label: 'Admin' },
];

/** Add-user dialog: username (3+), password (6+), optional email, role (default technician). */
export function AddUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const notify = useNotify();
  const { create } = useUserMutations();
  const { control, handleSubmit, reset } = useForm<NewUserValues>({
    resolver: zodResolver(newUserSchema),
    defaultValues: { username: '', password: '', email: '', role: 'technician' },
  });
  const close = () => {
    reset();
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    await create.mutateAsync(values).then((created) => {
      notify.success('User Created', `${created?.username ?? values.username} can now sign in.`);
      close();
    }, failureReported);
  });
  return (
    <Modal
      open={open}
      title="Add User"
      okText="Create User"
      onOk={() => void onSubmit()}
      onCancel={close}
      confirmLoading={create.isPending}
      destroyOnHidden
    >
      <Form layout="vertical" component="div" requiredMark={false}>
        <Field
          control={control}
          name="username"
          label="Username"
          id="new-user-username"
          render={(field, meta) => (
            <Input
              {...field}
              id={meta.id}
              autoComplete="off"
              autoCapitalize="none"
              aria-invalid={meta.invalid || undefined}
              aria-describedby={meta.describedBy}
            />
          )}
        />
        <Field
          control={control}
          name="password"
          label="Password"
          id="new-user-password"
          render={(field, meta) => (
            <Input.Password
              {...field}
              id={meta.id}
              autoComplete="new-password"
              aria-invalid={meta.invalid || undefined}
              aria-describedby={meta.describedBy}
            />
          )}
        />
        <Field
          control={control}
          name="email"
          label="Email"
          optional
          id="new-user-email"
          render={(field, meta) => (
            <Input
              {...field}
              id={meta.id}
              type="email"
              autoComplete="off"
              aria-invalid={meta.invalid || undefined}
              aria-describedby={meta.describedBy}
            />
          )}
        />
        <Form.Item label="Role" htmlFor="new-user-role">
          <Controller
            control={control}
            name="role"
            render={({ field }) => (
              <Select
                id="new-user-role"
                value={field.value}
                onChange={field.onChange}
                options={ROLE_OPTIONS}
              />
            )}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function StatusButton({ user }: { user: StaffUser }) {
  const { user: me } = useDashboard();
  const notify = useNotify();
  const { setActive } = useUserMutations();
  const self = String(me.id) === String(user.id);
  const onClick = () =>
    setActive
      .mutateAsync({ id: user.id, isActive: !user.isActive })
      .then(
        () =>
          notify.success(
            user.isActive ? 'User Deactivated' : 'User Activated',
            `${user.username} is now ${user.isActive ? 'inactive' : 'active'}.`,
          ),
        failureReported,
      );
  return (
    <Button
      size="small"
      danger={user.isActive}
      loading={setActive.isPending}
      disabled={self && user.isActive}
      title={self && user.isActive ? 'You cannot deactivate your own account' : undefined}
      onClick={() => void onClick()}
      aria-label={`${user.isActive ? 'Deactivate' : 'Activate'} ${user.username}`}
    >
      {user.isActive ? 'Deactivate' : 'Activate'}
    </Button>
  );
}

/** Team Management (admins): staff accounts, add user, Activate/Deactivate. */
export function TeamTab() {
  const users = useStaffUsers();
  const [adding, setAdding] = useState(false);
  const list = users.data ?? [];

  const columns: TableColumnsType<StaffUser> = [
    {
      title: 'Username',
      dataIndex: 'username',
      key: 'username',
      render: (v: string) => <strong>{v}</strong>,
    },
    {
      title: 'Email',
      dataIndex: 'email',
      key: 'email',
      render: (v: string | null) => v || <span className="dash-muted">Not set</span>,
    },
    {
      title: 'Role',
      dataIndex: 'role',
      key: 'role',
      render: (v: string) => (
        <Tag color={v === 'admin' ? 'blue' : 'green'}>{v === 'admin' ? 'Admin' : 'Technician'}</Tag>
      ),
    },
    {
      title: 'Status',
      dataIndex: 'isActive',
      key: 'status',
      render: (v: boolean) => <Tag color={v ? 'green' : 'default'}>{v ? 'Active' : 'Inactive'}</Tag>,
    },
    { title: 'Created', dataIndex: 'createdAt', key: 'created', render: (v?: string) => formatShortDate(v) },
    { title: 'Actions', key: 'actions', render: (_: unknown, u) => <StatusButton user={u} /> },
  ];

  return (
    <section className="dash-panel" aria-labelledby="dash-team-title">
      <div className="dash-panel__bar">
        <h2 id="dash-team-title" className="dash-panel__title">
          Team Management
        </h2>
        <Button type="primary" onClick={() => setAdding(true)}>
          Add User
        </Button>
      </div>
      <ResponsiveList<StaffUser>
        query={users}
        items={list}
        rowKey={(u) => String(u.id)}
        errorTitle="Failed to fetch users"
        loadingText="Loading users..."
        emptyText="No users found"
        columns={columns}
        renderCard={(u) => (
          <li key={u.id}>
            <article className="dash-card" aria-labelledby={`user-${u.id}`}>
              <header className="dash-card__head">
                <h3 id={`user-${u.id}`} className="dash-card__title">
                  {u.username}
                </h3>
                <Tag color={u.isActive ? 'green' : 'default'}>{u.isActive ? 'Active' : 'Inactive'}</Tag>
              </header>
              <dl className="dash-card__facts">
                <div>
                  <dt>Email</dt>
                  <dd>{u.email || 'Not set'}</dd>
                </div>
                <div>
                  <dt>Role</dt>
                  <dd>{u.role === 'admin' ? 'Admin' : 'Technician'}</dd>
                </div>
              </dl>
              <div className="dash-card__foot">
                <StatusButton user={u} />
              </div>
            </article>
          </li>
        )}
      />
      <AddUserDialog open={adding} onClose={() => setAdding(false)} />
    </section>
  );
}
