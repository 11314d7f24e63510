import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

interface ModalDialogProps {
  title: string;
  /** Called when the dialog closes by Escape or a button with `value="cancel"`. */
  onClose(): void;
  children: ComponentChildren;
}

/**
 * A native modal `<dialog>`, opened with `showModal()` so the browser traps focus, makes the page behind
 * inert and closes it on Escape. Render it to open it; unmount it to close it.
 */
export function ModalDialog({ title, onClose, children }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current!;
    // Focus goes back where it was when the dialog opened (the button that opened it, usually).
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    const onNativeClose = () => onCloseRef.current();
    dialog.addEventListener('close', onNativeClose);
    return () => {
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog ref={ref} class="dialog" aria-labelledby={titleId}>
      <h2 id={titleId} class="dialog-title">
        {title}
      </h2>
      {children}
    </dialog>
  );
}
