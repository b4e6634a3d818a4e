// The badge page's script (GET /b/{code}, served as /assets/badge.js): check-in by staff. A staff
// member pastes their bearer token once; it stays in this tab's sessionStorage (gone when the tab
// closes, never sent anywhere but this service's API) and the "Check in" button posts the badge's
// code to POST /editions/{edition_id}/check-ins. Each press carries a fresh nonce, so a retry after
// a lost answer is counted once. Strings come from data-msg-* attributes, in the page's language.

(() => {
  const root = document.getElementById('staff');
  if (root === null) return;
  const KEY = 'convene.staffToken';
  const messages = root.dataset;
  const tokenForm = document.getElementById('staff-token-form');
  const tokenInput = document.getElementById('staff-token');
  const actions = document.getElementById('staff-actions');
  const button = document.getElementById('check-in');
  const result = document.getElementById('staff-result');

  function storedToken() {
    try {
      return window.sessionStorage.getItem(KEY);
    } catch {
      return null;
    }
  }

  function show() {
    const signedIn = storedToken() !== null;
    tokenForm.hidden = signedIn;
    actions.hidden = !signedIn;
  }

  function forget() {
    try {
      window.sessionStorage.removeItem(KEY);
    } catch {
      // Storage refused (private mode): nothing was kept.
    }
    show();
  }

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

  tokenForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = tokenInput.value.trim().replace(/^Bearer\s+/i, '');
    if (token === '') return;
    try {
      window.sessionStorage.setItem(KEY, token);
    } catch {
      tell(messages.msgFailed);
      return;
    }
    tokenInput.value = '';
    tell('');
    show();
    button.focus();
  });

  document.getElementById('staff-forget').addEventListener('click', () => {
    forget();
    tell('');
    tokenInput.focus();
  });

  // Busy, not disabled: a disabled button drops the keyboard focus of whoever pressed it.
  let busy = false;

  button.addEventListener('click', async () => {
    const token = storedToken();
    if (token === null) return show();
    if (busy) return;
    busy = true;
    button.setAttribute('aria-disabled', 'true');
    tell(messages.msgSending);
    try {
      const response = await fetch(`/editions/${encodeURIComponent(root.dataset.editionId)}/check-ins`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ code: root.dataset.code, nonce: nonce() }),
      });
      const answer = await response.json().catch(() => null);
      if (response.status === 401) {
        forget();
        tell(messages.msgBadToken);
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
  show();
})();
