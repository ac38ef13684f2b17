import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';

/**
 * A native <dialog> opened as a modal while `open` is true and closed when it turns false: the
 * browser then keeps the focus inside, makes the page behind inert and returns the focus on close.
 */
export function useModalDialog(open: boolean): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return ref;
}

/**
 * A modal built on the native <dialog>: the browser traps focus, Escape closes it (unless
 * `dismissible` is false: a question that must be answered), and the page behind is inert.
 * `actions` go in a row at the bottom; content with its own form puts DialogActions inside it.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  actions,
  dismissible = true,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  actions?: ReactNode;
  dismissible?: boolean;
}) {
  const ref = useModalDialog(open);
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-modal="true"
      onClose={onClose}
      onCancel={(event) => {
        if (!dismissible) event.preventDefault();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-lg bg-white p-0 shadow-xl"
    >
      {/* Nothing inside while closed: a closed dialog's words are not on the page. */}
      {open && (
        <div className="p-6">
          <h2 id={titleId} className="text-xl font-bold text-slate-900">
            {title}
          </h2>
          <div className="mt-3 space-y-3 text-slate-700">{children}</div>
          {actions && <DialogActions>{actions}</DialogActions>}
        </div>
      )}
    </dialog>
  );
}

/** The dialog's buttons: stacked on a phone (the main one on top), in a row from sm up. */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{children}</div>;
}
