"use client";

import { useId, type ComponentPropsWithRef, type ReactNode } from "react";

import styles from "./field.module.css";

/** What every field shows around its control. */
type FieldFrameProps = {
  /** The visible label; it is also the control's accessible name. */
  label: ReactNode;
  /** A sentence under the control that stays (a format, a limit); the control is described by it. */
  hint?: ReactNode;
  /** The field's own error, in the reader's language; set, the control is `aria-invalid` and described by it. */
  error?: string | null;
  /** Marks the control invalid without an error of its own (the form's error names it; pair with `describedBy`). */
  isInvalid?: boolean;
  /** More ids the control is described by, after the hint and the error (a form-level error, a status). */
  describedBy?: string;
  /** The control's id; one is made when not given (give one when other code focuses the control by id). */
  id?: string;
  /** A class for the wrapper, beside the shared `field`. */
  className?: string;
};

type FrameIds = { id: string; describedBy: string | undefined; hintId: string; errorId: string };

function useFrameIds({ id, hint, error, describedBy }: FieldFrameProps): FrameIds {
  const madeId = useId();
  const controlId = id ?? madeId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const ids = [hint ? hintId : null, error ? errorId : null, describedBy ?? null].filter(Boolean);
  return { id: controlId, describedBy: ids.length > 0 ? ids.join(" ") : undefined, hintId, errorId };
}

function FieldFrame({ frame, ids, children }: { frame: FieldFrameProps; ids: FrameIds; children: ReactNode }) {
  return (
    <div className={frame.className ? `field ${frame.className}` : "field"}>
      <label htmlFor={ids.id}>{frame.label}</label>
      {children}
      {frame.hint ? (
        <p className={styles.hint} id={ids.hintId}>
          {frame.hint}
        </p>
      ) : null}
      {frame.error ? (
        <p className={styles.error} id={ids.errorId}>
          {frame.error}
        </p>
      ) : null}
    </div>
  );
}

/** Splits a field's props into its frame and the props that go to the control. */
function splitFrame<T extends FieldFrameProps>({
  label,
  hint,
  error,
  isInvalid,
  describedBy,
  id,
  className,
  ...control
}: T) {
  return { frame: { label, hint, error, isInvalid, describedBy, id, className }, control };
}

function isInvalidFrame(frame: FieldFrameProps): true | undefined {
  return frame.error || frame.isInvalid ? true : undefined;
}

type ControlProps<E extends "input" | "textarea" | "select"> = Omit<
  ComponentPropsWithRef<E>,
  "id" | "className" | "aria-invalid" | "aria-describedby"
> & {
  /** A class for the control itself. */
  controlClassName?: string;
};

export type FieldProps = FieldFrameProps & ControlProps<"input">;

/**
 * A labelled input with an optional hint and its inline error: the label names the input, the hint and the
 * error describe it (`aria-describedby`), and an error marks it `aria-invalid`. Every other prop goes to the
 * `<input>` (type, name, value, onChange, onBlur, autoComplete, ref, …).
 */
export function Field(props: FieldProps) {
  const { frame, control } = splitFrame(props);
  const { controlClassName, ...input } = control;
  const ids = useFrameIds(frame);
  return (
    <FieldFrame frame={frame} ids={ids}>
      <input
        {...input}
        id={ids.id}
        className={controlClassName}
        aria-invalid={isInvalidFrame(frame)}
        aria-describedby={ids.describedBy}
      />
    </FieldFrame>
  );
}

export type TextAreaFieldProps = FieldFrameProps & ControlProps<"textarea">;

/** `Field` with a `<textarea>` (a reason, a description, a pasted receipt). */
export function TextAreaField(props: TextAreaFieldProps) {
  const { frame, control } = splitFrame(props);
  const { controlClassName, ...textarea } = control;
  const ids = useFrameIds(frame);
  return (
    <FieldFrame frame={frame} ids={ids}>
      <textarea
        {...textarea}
        id={ids.id}
        className={controlClassName}
        aria-invalid={isInvalidFrame(frame)}
        aria-describedby={ids.describedBy}
      />
    </FieldFrame>
  );
}

export type SelectFieldProps = FieldFrameProps &
  ControlProps<"select"> & {
    /** The choices, in order: each value with its label in the reader's language. */
    options: readonly { value: string; label: string }[];
  };

/** `Field` with a `<select>` of `options`. */
export function SelectField(props: SelectFieldProps) {
  const { frame, control } = splitFrame(props);
  const { controlClassName, options, ...select } = control;
  const ids = useFrameIds(frame);
  return (
    <FieldFrame frame={frame} ids={ids}>
      <select
        {...select}
        id={ids.id}
        className={controlClassName}
        aria-invalid={isInvalidFrame(frame)}
        aria-describedby={ids.describedBy}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
