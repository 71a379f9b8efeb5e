// A number as the UI shows it (format.ts readableNumber), the exact value on hover.
import { readableNumber } from '../format';

export function NumberText({ value, className }: { value: number; className?: string }) {
  const shown = readableNumber(value);
  const exact = String(value);
  return (
    <span className={className} title={shown === exact ? undefined : exact} data-exact={exact}>
      {shown}
    </span>
  );
}
