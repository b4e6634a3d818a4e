/**
 * A button whose action is asked again in a modal `<dialog>` first: the question states what will
 * happen (to whom, how much), and only **Confirm** does it. The native dialog keeps the focus inside,
 * closes with Escape and gives the focus back to the button; its children may add fields (a refund's
 * amount) whose values `onConfirm` receives by name.
 */
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import { useI18n } from './i18n.tsx';
import { formValues } from './ui.tsx';

let dialogCount = 0;

export function ConfirmButton({
  label,
  accessibleLabel,
  question,
  onConfirm,
  disabled = false,
  children,
  danger = false,
}: {
  label: string;
  /** The button's name for assistive technology when `label` alone is ambiguous in a list. */
  accessibleLabel?: string;
  question: string;
  onConfirm: (values: Record<string, string>) => void;
  disabled?: boolean;
  danger?: boolean;
  children?: ComponentChildren;
}) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useRef(`confirm-${++dialogCount}`).current;
  return (
    <>
      <button
        type="button"
        class="secondary small"
        aria-label={accessibleLabel}
        disabled={disabled}
        onClick={() => dialog.current?.showModal()}
      >
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-question`} class="confirm">
        <form
          method="dialog"
          onSubmit={(submitted) => {
            const values = formValues(submitted);
            const confirmed = (submitted.submitter as HTMLButtonElement | null)?.value === 'yes';
            if (confirmed) onConfirm(values);
          }}
        >
          <p id={`${id}-question`}>{question}</p>
          {children}
          <div class="actions">
            <button type="submit" value="yes" class={danger ? 'danger' : undefined}>
              {t('confirm')}
            </button>
            <button type="submit" value="no" class="secondary" formNoValidate>
              {t('cancel')}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
