import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ok } from '../api/client';
import { keys } from '../api/queries';
import { ErrorBox, Field } from '../ui';

/** Sign up or log in; the API answers with an HttpOnly session cookie (`?session=cookie`). */
export function AuthScreen() {
  const [mode, setMode] = useState<'login' | 'signup'>('login');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const client = useQueryClient();
  const enter = useMutation({
    mutationFn: () =>
      mode === 'signup'
        ? ok(api.POST('/user', { params: { query: { session: 'cookie' } }, body: { name, email, password } }))
        : ok(api.POST('/user/login', { params: { query: { session: 'cookie' } }, body: { email, password } })),
    // Signed in: asking who is signed in again opens the editor.
    onSuccess: () => client.invalidateQueries({ queryKey: keys.me }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    enter.mutate();
  };

  return (
    <main className="auth">
      <h1 className="brand">Plotline</h1>
      <form className="panel" onSubmit={submit} aria-labelledby="auth-title">
        <h2 id="auth-title">{mode === 'signup' ? 'Create your account' : 'Log in'}</h2>
        {mode === 'signup' ? (
          <Field label="Name">
            <input name="name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
        ) : null}
        <Field label="Email">
          <input name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label="Password" {...(mode === 'signup' ? { hint: 'At least 8 characters' } : {})}>
          <input name="password" type="password" autoComplete={mode === 'signup' ? 'new-password' : 'current-password'} required value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <ErrorBox error={enter.error} />
        <button type="submit" className="primary" disabled={enter.isPending}>
          {mode === 'signup' ? 'Sign up' : 'Log in'}
        </button>
        <p>
          {mode === 'signup' ? 'Already have an account? ' : 'New here? '}
          <button type="button" className="link" onClick={() => (setMode(mode === 'signup' ? 'login' : 'signup'), enter.reset())}>
            {mode === 'signup' ? 'Log in' : 'Create an account'}
          </button>
        </p>
      </form>
    </main>
  );
}
