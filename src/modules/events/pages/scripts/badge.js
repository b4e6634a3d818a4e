// The badge page's script (GET /b/{code}, served as /assets/badge.js): check-in by staff. The page
// shows the button only to a signed-in member with staff or more on the event; the button posts the
// badge's code to POST /editions/{edition_id}/check-ins with the session cookie, the header every
// cookie-authenticated write needs (X-Convene-CSRF: 1) and the page's origin (docs/reference/sign-in.md).
// Each press carries a fresh nonce, so a retry after a lost answer is counted once. Strings come from
// data-msg-* attributes, in the page's language.

(() => {
  const root = document.getElementById('staff');
  if (root === null) return;
  const messages = root.dataset;
  const button = document.getElementById('check-in');
  const result = document.getElementById('staff-result');
  const signIn = document.getElementById('staff-sign-in');

  // A nonce from the platform's random source (crypto.randomUUID needs a secure context; this
  // page may be opened over plain HTTP on a LAN address).
  function nonce() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return `badge-page:${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  }

  const LOOKS = { ok: 'status-ok', already: 'status-already', refused: 'status-bad' };

  /**
   * Says the outcome: green for a first check-in, indigo for a badge already checked in (let in,
   * but staff should see at a glance that it was used before), red for one refused.
   */
  function tell(text, outcome) {
    result.textContent = text;
    result.className = outcome === undefined ? '' : `status ${LOOKS[outcome]}`;
  }

  // In UTC, said so, like every time the pages and the API give (editions carry no time zone).
  function when(iso) {
    const text = new Date(iso).toLocaleString(document.documentElement.lang, {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: 'UTC',
    });
    return `${text} UTC`;
  }

  const REFUSALS = {
    revoked: 'msgRevoked',
    wrong_edition: 'msgWrongEdition',
    not_allowed: 'msgNotAllowed',
    not_open: 'msgNotOpen',
    unknown: 'msgUnknown',
  };

  // Busy, not disabled: a disabled button drops the keyboard focus of whoever pressed it.
  let busy = false;

  button.addEventListener('click', async () => {
    if (busy) return;
    busy = true;
    button.setAttribute('aria-disabled', 'true');
    tell(messages.msgSending);
    try {
      const response = await fetch(`/editions/${encodeURIComponent(root.dataset.editionId)}/check-ins`, {
        method: 'POST',
        credentials: 'same-origin',
        // The pages' policy is no-referrer, under which a POST says `Origin: null`; the cookie's
        // same-origin rule needs the real origin (sent to this service only).
        referrerPolicy: 'same-origin',
        headers: {
          'x-convene-csrf': '1',
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ code: root.dataset.code, nonce: nonce() }),
      });
      const answer = await response.json().catch(() => null);
      if (response.status === 401) {
        tell(messages.msgSignedOut);
        signIn.hidden = false;
      } else if (response.status === 403 || response.status === 404) {
        tell(messages.msgNotStaff);
      } else if (response.ok && answer?.data?.result === 'ok') {
        tell(messages.msgOk, 'ok');
      } else if (response.ok && answer?.data?.result === 'already_checked_in') {
        tell(`${messages.msgAlready} ${when(answer.data.first_checked_in_at)}.`, 'already');
      } else {
        const refusal = REFUSALS[answer?.error?.meta?.result];
        if (refusal === undefined) tell(messages.msgFailed);
        else tell(messages[refusal], 'refused');
      }
    } catch {
      tell(messages.msgFailed);
    }
    busy = false;
    button.removeAttribute('aria-disabled');
  });

  root.hidden = false;
})();
