import { Link } from '@tanstack/react-router';

export function NotFound() {
  return (
    <div style={{ padding: 24 }} data-testid="not-found">
      <h1 style={{ fontSize: 18 }}>No such page</h1>
      <Link to="/">All projects</Link>
    </div>
  );
}
