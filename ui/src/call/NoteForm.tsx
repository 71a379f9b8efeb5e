// The form that adds a note (wandb.note.1) to whatever the feedback is on: a call, an agent
// turn or a conversation. It clears itself once the note is stored.
import { useState } from 'react';

export function NoteForm({
  className,
  busy,
  multiline,
  submitLabel,
  onAdd,
}: {
  className: string | undefined;
  busy: boolean;
  /** A textarea of two rows (a call's Feedback tab) rather than one line. */
  multiline: boolean;
  submitLabel: string;
  /** Stores the note; `done` clears the form. */
  onAdd: (note: string, done: () => void) => void;
}) {
  const [note, setNote] = useState('');
  const field = {
    value: note,
    onChange: (e: { target: { value: string } }) => setNote(e.target.value),
    maxLength: 1024,
    placeholder: 'Add a note…',
    'aria-label': 'Note',
    'data-testid': 'note-input',
  };
  return (
    <form
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        if (note.trim() !== '') onAdd(note.trim(), () => setNote(''));
      }}
    >
      {multiline ? <textarea rows={2} {...field} /> : <input {...field} />}
      <button type="submit" disabled={busy || note.trim() === ''} data-testid="note-add">
        {submitLabel}
      </button>
    </form>
  );
}
