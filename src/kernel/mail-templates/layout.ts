/**
 * The HTML layout every built-in e-mail shares (the projects' templates and the events' mails), as
 * Liquid source: a kind's copy, which may hold Liquid too, goes into it. Layout rules, for the mail
 * clients that matter (Outlook's Word engine, Gmail, Apple Mail): tables for layout with
 * `role="presentation"`, inline styles only (Gmail drops `<style>` in some views), no external
 * images or fonts (an image is an attachment named by `cid:`), a hidden preheader, a "bulletproof"
 * button (a padded table cell around the link, so it stays a button without CSS support) and the
 * link again as plain text for clients that strip buttons. Colours meet WCAG AA contrast
 * (#1f2937 on #ffffff, #ffffff on #2563eb, #4b5563 on #ffffff).
 */

export interface MailCopy {
  /** The language of the message (`lang` of the document). */
  lang: string;
  title: string;
  preheader: string;
  /** The small line above the heading: who sends it. */
  header: string;
  heading: string;
  intro: string;
  /**
   * Facts as label/value rows (an event's dates, a ticket, an amount), after the intro; a row with a
   * third item is shown only when that variable is not empty (Liquid `if`).
   */
  details?: ReadonlyArray<readonly [label: string, value: string, when?: string]>;
  /** An inline image after the facts (a badge's QR code, attached and named by `cid:`). */
  image?: { src: string; alt: string; size: number };
  /** The call to action: its label and the Liquid variable holding its address. */
  button?: { label: string; variable: string };
  /** The line before the plain copy of the button's link. */
  fallback?: string;
  outro: string;
  footer: string;
}

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";

function detailsRows(details: MailCopy['details']): string {
  if (details === undefined || details.length === 0) return '';
  const rows = details
    .map(([label, value, when]) => {
      const row = `<tr>\n<th scope="row" align="left" style="padding:4px 16px 4px 0;${FONT}font-size:14px;line-height:20px;color:#4b5563;font-weight:600;vertical-align:top;">${label}</th>\n<td style="padding:4px 0;${FONT}font-size:14px;line-height:20px;color:#1f2937;">${value}</td>\n</tr>`;
      return when === undefined ? row : `{% if ${when} != blank %}${row}{% endif %}`;
    })
    .join('\n');
  return `<tr>
<td style="padding:16px 40px 0 40px;">
<table role="presentation" cellpadding="0" cellspacing="0" border="0">
${rows}
</table>
</td>
</tr>
`;
}

function imageRow(image: MailCopy['image']): string {
  if (image === undefined) return '';
  return `<tr>
<td align="center" style="padding:24px 40px 0 40px;">
<img src="${image.src}" alt="${image.alt}" width="${image.size}" height="${image.size}" style="display:block;border:0;width:${image.size}px;height:${image.size}px;">
</td>
</tr>
`;
}

function buttonRow(button: MailCopy['button']): string {
  if (button === undefined) return '';
  return `<tr>
<td align="left" style="padding:24px 40px;">
<table role="presentation" cellpadding="0" cellspacing="0" border="0">
<tr>
<td align="center" bgcolor="#2563eb" style="border-radius:6px;background-color:#2563eb;">
<a href="{{ ${button.variable} }}" target="_blank" style="display:inline-block;padding:12px 24px;${FONT}font-size:16px;line-height:24px;color:#ffffff;font-weight:600;text-decoration:none;border-radius:6px;">${button.label}</a>
</td>
</tr>
</table>
</td>
</tr>
`;
}

function fallbackLines(copy: MailCopy): string {
  if (copy.button === undefined || copy.fallback === undefined) return '';
  const link = `{{ ${copy.button.variable} }}`;
  return `
<p style="margin:0 0 8px 0;">${copy.fallback}</p>
<p style="margin:0;word-break:break-all;"><a href="${link}" style="color:#1d4ed8;text-decoration:underline;">${link}</a></p>`;
}

/** The whole message around `copy` (Liquid source). */
export function mailLayout(copy: MailCopy): string {
  return `<!DOCTYPE html>
<html lang="${copy.lang}" xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<meta name="color-scheme" content="light">
<title>${copy.title}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<div style="display:none;max-height:0;overflow:hidden;mso-hide:all;font-size:1px;line-height:1px;color:#f3f4f6;opacity:0;" data-preheader>${copy.preheader}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
<tr>
<td align="center" style="padding:32px 16px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border-radius:8px;">
<tr>
<td style="padding:32px 40px 8px 40px;${FONT}font-size:14px;line-height:20px;color:#4b5563;font-weight:600;letter-spacing:0.02em;">${copy.header}</td>
</tr>
<tr>
<td style="padding:8px 40px 0 40px;">
<h1 style="margin:0;${FONT}font-size:24px;line-height:32px;color:#1f2937;font-weight:700;">${copy.heading}</h1>
</td>
</tr>
<tr>
<td style="padding:16px 40px 0 40px;${FONT}font-size:16px;line-height:24px;color:#1f2937;">
<p style="margin:0;">${copy.intro}</p>
</td>
</tr>
${detailsRows(copy.details)}${imageRow(copy.image)}${buttonRow(copy.button)}<tr>
<td style="padding:${copy.button === undefined ? '24px ' : '0 '}40px 0 40px;${FONT}font-size:14px;line-height:20px;color:#4b5563;">
<p style="margin:0 0 8px 0;">${copy.outro}</p>${fallbackLines(copy)}
</td>
</tr>
<tr>
<td style="padding:24px 40px 32px 40px;${FONT}font-size:12px;line-height:18px;color:#4b5563;">
<p style="margin:0;border-top:1px solid #e5e7eb;padding-top:16px;">${copy.footer}</p>
</td>
</tr>
</table>
</td>
</tr>
</table>
</body>
</html>
`;
}
