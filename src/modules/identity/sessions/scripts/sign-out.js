// The sign-out button of any page (served as /assets/sign-out.js): a `form[data-sign-out]` posts to
// POST /auth/sign-out. A plain form cannot send the header every cookie-authenticated write needs
// (X-Convene-CSRF: 1, docs/reference/sign-in.md), so this script sends the request itself, then opens
// the form's `data-after` address (default `/`). The form's `data-msg-failed` says when it fails.

(() => {
  for (const form of document.querySelectorAll('form[data-sign-out]')) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        const response = await fetch(form.action, {
          method: 'POST',
          headers: { 'x-convene-csrf': '1', accept: 'application/json' },
          credentials: 'same-origin',
          // The pages' policy is no-referrer, under which a POST says `Origin: null`; the cookie's
          // same-origin rule needs the real origin (sent to this service only).
          referrerPolicy: 'same-origin',
          // The 303 to `/` is followed by opening the page below, not by fetch.
          redirect: 'manual',
        });
        // 303 (an opaque redirect here) or 401 (already signed out): either way, no session now.
        if (response.type === 'opaqueredirect' || response.status === 303 || response.status === 401) {
          window.location.assign(form.dataset.after || '/');
          return;
        }
      } catch {
        // Network failure: said below.
      }
      const status = form.querySelector('[role=status]');
      if (status !== null) status.textContent = form.dataset.msgFailed || '';
    });
  }
})();
