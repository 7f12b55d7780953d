/** An inline error next to a form field (announced by screen readers); nothing when there is no message. */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  return message ? (
    <span id={id} className="field-error" role="alert">
      {message}
    </span>
  ) : null;
}
