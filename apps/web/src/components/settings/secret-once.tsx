"use client";

/** A secret (token, invitation link) in the one answer that carries it: it cannot be shown again. */
export function SecretOnce({ title, secret, onDone, testId }: { title: string; secret: string; onDone: () => void; testId: string }) {
  return (
    <section className="settings-secret" aria-label={title}>
      <strong>{title}: copy it now, it is not shown again.</strong>
      <code className="mono" data-testid={testId}>
        {secret}
      </code>
      <div>
        <button type="button" className="settings-secondary" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </section>
  );
}
