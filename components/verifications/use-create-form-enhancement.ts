// The create form's progressive enhancement, as seen from the plain form: when to fetch the
// enhanced module (react-hook-form, the live rules and the result panel), and how to hand over
// to it without the person noticing. The plain form (create-verification-form.tsx) must not
// carry react-hook-form in the page's first-load JavaScript, so the module is only ever reached
// through the dynamic import below; this file imports nothing of it but its type. It is fetched
// once the page has loaded (when the browser is idle) or at the first interaction with the
// form, and swapped in with what the person already did: the values, the fields they left, the
// focus and the caret.
import { type RefObject, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { emptyCreateVerificationForm, formValuesFromFormData } from '@/lib/verifications/form-values';
import type { CarriedFocus, CarriedOver, FieldName } from './create-verification-fields';

export type EnhancedModule = typeof import('./create-verification-form-enhanced');

let enhancedLoading: Promise<EnhancedModule> | undefined;
/** Set once the module has arrived, so nothing that needs it waits a render for it again. */
let enhancedModule: EnhancedModule | undefined;

/** Fetches the enhanced module once; a failed fetch is tried again at the next call. */
export function loadEnhanced(): Promise<EnhancedModule> {
  enhancedLoading ??= import('./create-verification-form-enhanced').then(
    (module) => (enhancedModule = module),
    (error: unknown) => {
      // Not fetched (offline, a new deployment): tried again at the next interaction. The
      // plain form keeps working meanwhile; the server validates every post anyway.
      enhancedLoading = undefined;
      throw error;
    },
  );
  return enhancedLoading;
}

/** The enhanced module if it has already arrived. */
export function loadedEnhanced(): EnhancedModule | undefined {
  return enhancedModule;
}

/** The module swapped in, and what the plain form held at that moment (none for a fresh, empty form). */
export type Enhancement = { module: EnhancedModule; carried?: CarriedOver };

/**
 * Fetches the enhanced module after the window's load event (when idle) or at the first
 * interaction with the form, and swaps it in when the person is not in the middle of something.
 */
export function useCreateFormEnhancement(formRef: RefObject<HTMLFormElement | null>) {
  const [enhancement, setEnhancement] = useState<Enhancement>();
  const enhanced = enhancement !== undefined;

  useEffect(() => {
    if (enhanced) return;
    let active = true;
    let requested = false;
    let held: EnhancedModule | undefined;
    let pointerDown = false;
    let composing = false;
    const visited = new Set<FieldName>();
    const inForm = (target: EventTarget | null): target is Element => target instanceof Element && !!formRef.current?.contains(target);

    // Not during a gesture or in a control whose state cannot be carried over: a click whose
    // target is replaced between press and release is lost, a replaced <select> closes its
    // open list, IME composition would end, and an e-mail input does not tell scripts where its
    // caret is. The swap waits for the end of these (see `retry`).
    const busy = () => {
      const focused = document.activeElement;
      return (
        pointerDown ||
        composing ||
        (inForm(focused) && (focused instanceof HTMLSelectElement || (focused instanceof HTMLInputElement && focused.type === 'email')))
      );
    };
    const swap = (module: EnhancedModule) => {
      if (!active) return;
      if (busy()) {
        held = module;
        return;
      }
      active = false;
      held = undefined;
      const form = formRef.current;
      // Read and re-render in one task, so no keystroke can land in between.
      flushSync(() => setEnhancement({ module, carried: form ? carryOver(form, visited) : undefined }));
    };
    const retry = () => {
      const module = held;
      // After the browser has finished with the event (the click after pointerup, the focus
      // moving on after focusout).
      if (module) setTimeout(() => swap(module), 0);
    };
    const request = () => {
      if (requested) return;
      requested = true;
      loadEnhanced().then(swap, () => {
        requested = false;
      });
    };

    const onInteraction = (event: Event) => {
      if (!inForm(event.target)) return;
      if (event.type === 'pointerdown') pointerDown = true;
      request();
    };
    const onPointerEnd = () => {
      pointerDown = false;
      retry();
    };
    const onFocusOut = (event: FocusEvent) => {
      const target = event.target;
      if (
        inForm(target) &&
        'name' in target &&
        typeof target.name === 'string' &&
        Object.hasOwn(emptyCreateVerificationForm, target.name)
      ) {
        visited.add(target.name as FieldName);
      }
      retry();
    };
    const onComposition = (event: CompositionEvent) => {
      composing = event.type === 'compositionstart' && inForm(event.target);
      if (!composing) retry();
    };
    const listeners: [EventTarget, string, EventListener][] = [
      [document, 'focusin', onInteraction],
      [document, 'pointerdown', onInteraction],
      [document, 'keydown', onInteraction],
      [document, 'focusout', onFocusOut as EventListener],
      [document, 'compositionstart', onComposition as EventListener],
      [document, 'compositionend', onComposition as EventListener],
      [window, 'pointerup', onPointerEnd],
      [window, 'pointercancel', onPointerEnd],
    ];
    for (const [target, type, listener] of listeners) target.addEventListener(type, listener, true);

    // Already here (a client-side visit back to this page, or the result panel needed it): at
    // once. Otherwise after the load event, so the page's first load does not include it.
    let idle: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(request, { timeout: 3_000 });
      else timer = setTimeout(request, 200);
    };
    if (enhancedModule) request();
    else if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });

    return () => {
      active = false;
      for (const [target, type, listener] of listeners) target.removeEventListener(type, listener, true);
      window.removeEventListener('load', whenIdle);
      if (idle !== undefined) window.cancelIdleCallback(idle);
      clearTimeout(timer);
    };
  }, [enhanced, formRef]);

  return [enhancement, setEnhancement] as const;
}

/** What the plain form holds right now, read from the page. */
function carryOver(form: HTMLFormElement, visited: Set<FieldName>): CarriedOver {
  const values = formValuesFromFormData(new FormData(form));
  // A disabled switch is left out of a post, but it still shows the person's choice.
  for (const name of ['shareableLink', 'emailNotification', 'smsNotification'] as const) {
    const control = form.elements.namedItem(name);
    if (control instanceof HTMLInputElement) values[name] = control.checked;
  }
  return { values, visited: [...visited], focus: focusIn(form) };
}

function focusIn(form: HTMLFormElement): CarriedFocus | undefined {
  const element = document.activeElement;
  if (!(element instanceof HTMLElement) || !form.contains(element)) return undefined;
  const focus: CarriedFocus = { id: element.id || undefined, index: Array.prototype.indexOf.call(form.elements, element) };
  if ((element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) && element.selectionStart !== null) {
    focus.selection = {
      start: element.selectionStart,
      end: element.selectionEnd ?? element.selectionStart,
      direction: element.selectionDirection ?? 'none',
    };
  }
  return focus;
}
