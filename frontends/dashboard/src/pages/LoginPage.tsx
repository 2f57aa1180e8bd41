import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Navigate } from 'react-router-dom';
import { Button, Form, Input } from 'antd';
import { ApiError, useToast, type BusinessInfo } from '@tyres/platform';
import { CheckingAuth } from '../auth/RequireUser';
import { useLogin } from '../auth/mutations';
import { useSessionUser } from '../auth/user';

const loginSchema = z.object({
  username: z.string().trim().min(1, 'Username is required'),
  password: z.string().min(1, 'Password is required'),
});

type LoginValues = z.infer<typeof loginSchema>;

function loginFailureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 400 || error.status === 401) return 'Invalid username or password';
    if (error.status === 429)
      return error.serverMessage ?? 'Too many login attempts. Please try again later.';
    return error.serverMessage ?? 'Login failed. Please try again.';
  }
  return 'Could not reach the server. Please check your connection and try again.';
}

/** Spec "Login page": Staff Login at /auth and /dashboard/login. */
export function LoginPage({ business, homePath }: { business: BusinessInfo; homePath: string }) {
  const { data: user, isPending } = useSessionUser();
  const { toast } = useToast();
  const {
    control,
    handleSubmit,
    resetField,
    setFocus,
    formState: { errors },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '' },
  });

  const login = useLogin({
    // Setting the session user re-renders this page into the redirect below.
    onSuccess: (signedIn) =>
      toast({ title: 'Welcome back', description: `Signed in as ${signedIn.username}.` }),
    onError: (error) => {
      resetField('password');
      setFocus('password');
      toast({ title: 'Login failed', description: loginFailureMessage(error), variant: 'destructive' });
    },
  });

  if (isPending) return <CheckingAuth />;
  // Signed in already, or just now: the dashboard is home.
  if (user) return <Navigate to={homePath} replace />;

  const onSubmit = handleSubmit((values) => login.mutate(values));

  return (
    <main className="dash-login">
      <title>{`Staff Login | ${business.name}`}</title>
      <meta name="robots" content="noindex" />
      <div className="dash-login__card">
        <div className="dash-login__brand">
          <span className="dash-logo__mark" aria-hidden="true" />
          <span>{business.name}</span>
        </div>
        <h1 className="dash-login__title">Staff Login</h1>
        <p className="dash-login__subtitle">Sign in to manage jobs, schedules and invoices.</p>

        <Form layout="vertical" onFinish={() => void onSubmit()} requiredMark={false}>
          <Form.Item
            label="Username"
            htmlFor="login-username"
            validateStatus={errors.username ? 'error' : undefined}
            help={errors.username?.message}
          >
            <Controller
              name="username"
              control={control}
              render={({ field }) => (
                <Input
                  {...field}
                  id="login-username"
                  size="large"
                  autoComplete="username"
                  autoCapitalize="none"
                  autoCorrect="off"
                  spellCheck={false}
                  aria-invalid={errors.username ? true : undefined}
                />
              )}
            />
          </Form.Item>
          <Form.Item
            label="Password"
            htmlFor="login-password"
            validateStatus={errors.password ? 'error' : undefined}
            help={errors.password?.message}
          >
            <Controller
              name="password"
              control={control}
              render={({ field }) => (
                <Input.Password
                  {...field}
                  id="login-password"
                  size="large"
                  autoComplete="current-password"
                  aria-invalid={errors.password ? true : undefined}
                />
              )}
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            size="large"
            block
            loading={login.isPending}
            className="dash-login__submit"
          >
            {login.isPending ? 'Signing in...' : 'Sign In'}
          </Button>
        </Form>

        <p className="dash-login__note">
          Accounts are created by an administrator. If you need access, please contact your administrator.
        </p>
      </div>
    </main>
  );
}
