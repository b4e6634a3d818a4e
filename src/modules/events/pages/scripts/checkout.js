// The checkout return page's script (GET /checkout/{intent_id}, served as /assets/checkout.js).
// While the payment is pending it asks the same address for JSON, every 2 s at first and at most
// every 15 s after, and reloads the page once the status is no longer `pending`, so the server
// renders the outcome. It stops after an hour; a reload starts it again.

(() => {
  const root = document.getElementById('checkout');
  if (root === null || root.dataset.status !== 'pending') return;
  const live = document.getElementById('checkout-live');
  const started = Date.now();
  let delay = 2000;

  async function check() {
    try {
      const response = await fetch(window.location.pathname, { headers: { accept: 'application/json' } });
      if (response.ok) {
        const answer = await response.json();
        if (answer.data && answer.data.status !== 'pending') {
          if (live !== null) live.textContent = root.dataset.updated;
          window.location.reload();
          return;
        }
      }
    } catch {
      // Offline for a moment: try again later.
    }
    delay = Math.min(delay * 1.5, 15000);
    if (Date.now() - started < 3600000) window.setTimeout(check, delay);
  }

  window.setTimeout(check, delay);
})();
