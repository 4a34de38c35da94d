/**
 * A segmented control: native radio inputs styled as joined buttons, so arrow keys move within
 * the group and assistive tech announces "radio, 2 of 4" with no hand-written key handling.
 */
import { useId } from 'react';

export function Segmented<V extends string>(props: {
  label: string;
  options: readonly (readonly [value: V, text: string])[];
  value: V;
  onChange: (value: V) => void;
}) {
  const name = useId();
  return (
    <fieldset className="segmented">
      <legend className="visually-hidden">{props.label}</legend>
      {props.options.map(([value, text]) => (
        <label key={value} className={props.value === value ? 'on' : ''}>
          <input type="radio" name={name} value={value} checked={props.value === value} onChange={() => props.onChange(value)} />
          {text}
        </label>
      ))}
    </fieldset>
  );
}
