import { checkHttpUrl, type FieldViolation, type HttpUrlRules, MAX_URL_LENGTH } from "@gateway/platform";

// C0/C1 control characters. NUL can't even be stored (FerretDB); the others have no place in
// names, references or URLs. Free text (descriptions) may keep tab and line breaks.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** True when `text` holds a character no stored name, reference or token can hold. */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/** Length in characters (code points), as a merchant counts them, not UTF-16 units. */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function violation(field: string, code: string, message: string): FieldViolation {
  return { field, code, message };
}

export interface TextRule {
  max: number;
  required?: boolean;
  /** Descriptions may hold tabs and line breaks. */
  multiline?: boolean;
}

/**
 * A text field: absent is fine unless required; present but empty or blank is `invalid`
 * (omit the field instead); too long or holding control characters is `invalid`.
 */
export function checkText(
  field: string,
  value: string | undefined,
  rule: TextRule,
): FieldViolation | undefined {
  if (value === undefined || (rule.required && value === "")) {
    return rule.required ? violation(field, "required", `${field} is required.`) : undefined;
  }
  if (value.trim() === "")
    return violation(field, "invalid", `${field} must not be empty or blank; omit it instead.`);
  if (charLength(value) > rule.max)
    return violation(field, "invalid", `${field} must be at most ${rule.max} characters.`);
  if ((rule.multiline ? CONTROL_EXCEPT_LINE_BREAKS : CONTROL).test(value)) {
    return violation(field, "invalid", `${field} must not contain control characters.`);
  }
  return undefined;
}

// Deliberately loose: one @, no spaces, a dot in the domain. Deliverability is the merchant's concern.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function checkEmail(field: string, value: string | undefined): FieldViolation | undefined {
  const basic = checkText(field, value, { max: 255 });
  if (basic || value === undefined) return basic;
  return EMAIL.test(value)
    ? undefined
    : violation(field, "invalid", `${field} must be an e-mail address such as name@example.com.`);
}

// E.164-ish: an optional +, then digits, spaces, parentheses and hyphens.
const PHONE = /^\+?[0-9 ()-]{4,20}$/;

export function checkPhone(field: string, value: string | undefined): FieldViolation | undefined {
  const basic = checkText(field, value, { max: 20 });
  if (basic || value === undefined) return basic;
  if (!PHONE.test(value) || !/[0-9].*[0-9].*[0-9].*[0-9]/.test(value)) {
    return violation(field, "invalid", `${field} must be a phone number such as +216 71 000 000.`);
  }
  return undefined;
}

/** A merchant URL, by the gateway's one URL validator (see @gateway/platform http-url). */
export function checkUrl(
  field: string,
  value: string | undefined,
  rules: HttpUrlRules = {},
): FieldViolation | undefined {
  const basic = checkText(field, value, { max: MAX_URL_LENGTH });
  if (basic || value === undefined) return basic;
  const checked = checkHttpUrl(value, rules);
  return checked.ok ? undefined : violation(field, "invalid", `${field} ${checked.message}`);
}

/** An optional integer within [min, max]. */
export function checkIntegerRange(
  field: string,
  value: number | undefined,
  min: number,
  max: number,
): FieldViolation | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min || value > max) {
    return violation(field, "invalid", `${field} must be a whole number from ${min} to ${max}.`);
  }
  return undefined;
}
