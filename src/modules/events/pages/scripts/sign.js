// The signing page's script (GET /sign?token=, served as /assets/sign.js). It draws on the canvas
// with pointer events (mouse, touch and pen alike), keeps strokes for undo, reads an uploaded PNG,
// and sends the signature or the refusal to the token routes of the API (docs/reference/signatures.md). Every
// outcome, success or a link that changed meanwhile, is shown by reloading the page, which the
// server renders. Strings come from the form's data-msg-* attributes, in the page's language.

(() => {
  const form = document.getElementById('sign-form');
  const declineForm = document.getElementById('decline-form');
  if (form === null || declineForm === null) return;
  const token = new URLSearchParams(window.location.search).get('token') || '';
  const messages = form.dataset;
  const maxBytes = Number(form.dataset.maxBytes);
  const pad = document.getElementById('pad');
  const upload = document.getElementById('upload');
  const preview = document.getElementById('preview');
  const signError = document.getElementById('sign-error');
  const signStatus = document.getElementById('sign-status');
  const declineError = document.getElementById('decline-error');
  const context = pad.getContext('2d');

  // Strokes in CSS pixels of the canvas box; drawn again on resize and undo, and scaled into the
  // exported image, so the result does not depend on the screen's pixel density.
  const strokes = [];
  let current = null;
  let uploaded = null;
  // Why the chosen file was refused (too large, not a PNG): pressing Sign says it again, rather
  // than asking to draw as if no file had been chosen.
  let refused = null;

  form.hidden = false;
  declineForm.hidden = false;

  function fit() {
    const ratio = window.devicePixelRatio || 1;
    pad.width = Math.round(pad.clientWidth * ratio);
    pad.height = Math.round(pad.clientHeight * ratio);
    redraw(context, ratio);
  }

  function redraw(target, scale) {
    target.clearRect(0, 0, target.canvas.width, target.canvas.height);
    target.lineCap = 'round';
    target.lineJoin = 'round';
    target.strokeStyle = '#111827';
    target.lineWidth = 2.5 * scale;
    for (const stroke of strokes) {
      target.beginPath();
      target.moveTo(stroke[0].x * scale, stroke[0].y * scale);
      for (const point of stroke) target.lineTo(point.x * scale, point.y * scale);
      if (stroke.length === 1) target.lineTo(stroke[0].x * scale + 0.1, stroke[0].y * scale);
      target.stroke();
    }
  }

  function pointOf(event) {
    const box = pad.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  function say(text) {
    signStatus.textContent = text;
  }

  pad.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    pad.setPointerCapture(event.pointerId);
    current = [pointOf(event)];
    strokes.push(current);
    signError.textContent = '';
    // Drawing replaces a chosen file, taken or refused: what is seen is what is sent.
    if (uploaded !== null || refused !== null) forgetUpload();
    redraw(context, window.devicePixelRatio || 1);
  });
  pad.addEventListener('pointermove', (event) => {
    if (current === null) return;
    current.push(pointOf(event));
    redraw(context, window.devicePixelRatio || 1);
  });
  const end = () => {
    if (current !== null) say(messages.msgDrawn);
    current = null;
  };
  pad.addEventListener('pointerup', end);
  pad.addEventListener('pointercancel', end);

  document.getElementById('undo').addEventListener('click', () => {
    strokes.pop();
    redraw(context, window.devicePixelRatio || 1);
  });
  function forgetUpload() {
    uploaded = null;
    refused = null;
    upload.value = '';
    preview.hidden = true;
    preview.removeAttribute('src');
  }

  document.getElementById('clear').addEventListener('click', () => {
    strokes.length = 0;
    forgetUpload();
    redraw(context, window.devicePixelRatio || 1);
    say(messages.msgCleared);
  });

  function refuse(text) {
    refused = text;
    signError.textContent = text;
  }

  upload.addEventListener('change', () => {
    uploaded = null;
    refused = null;
    preview.hidden = true;
    signError.textContent = '';
    const file = upload.files[0];
    if (file === undefined) return;
    if (file.type !== 'image/png') {
      refuse(messages.msgNotPng);
      return;
    }
    if (file.size > maxBytes) {
      refuse(messages.msgTooLarge);
      return;
    }
    const reader = new FileReader();
    reader.addEventListener('load', () => {
      const url = String(reader.result);
      if (!url.startsWith('data:image/png;base64,')) {
        refuse(messages.msgNotPng);
        return;
      }
      uploaded = url;
      // A chosen file replaces the drawing.
      strokes.length = 0;
      redraw(context, window.devicePixelRatio || 1);
      preview.src = url;
      preview.hidden = false;
    });
    reader.readAsDataURL(file);
  });

  /** The drawing as a PNG of fixed size (900 × 300 at most), transparent around the ink. */
  function drawing() {
    if (strokes.length === 0) return null;
    const scale = Math.min(900 / pad.clientWidth, 300 / pad.clientHeight);
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(pad.clientWidth * scale);
    canvas.height = Math.round(pad.clientHeight * scale);
    redraw(canvas.getContext('2d'), scale);
    return canvas.toDataURL('image/png');
  }

  // Busy, not disabled: a disabled button drops the keyboard focus of whoever pressed it.
  let busy = false;

  async function send(path, body, errorBox, button) {
    if (busy) return;
    busy = true;
    button.setAttribute('aria-disabled', 'true');
    const label = button.textContent;
    button.textContent = messages.msgSending;
    try {
      const response = await fetch(`${path}?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = await response.json().catch(() => null);
      // Done, or the link changed meanwhile (expired, decided elsewhere): the page says which.
      if (response.ok || response.status === 401 || response.status === 409) {
        window.location.reload();
        return;
      }
      const detail = answer?.error?.details?.[0]?.message;
      errorBox.textContent = detail ? `${messages.msgFailed} (${detail})` : messages.msgFailed;
    } catch {
      errorBox.textContent = messages.msgFailed;
    }
    busy = false;
    button.removeAttribute('aria-disabled');
    button.textContent = label;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const image = uploaded ?? drawing();
    if (image === null) {
      signError.textContent = refused ?? messages.msgEmpty;
      return;
    }
    send(
      '/signature-requests/fulfill',
      { image_url: image },
      signError,
      document.getElementById('sign-submit'),
    );
  });

  declineForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const reason = document.getElementById('reason').value.trim();
    send(
      '/signature-requests/deny',
      reason === '' ? {} : { reason },
      declineError,
      document.getElementById('decline-submit'),
    );
  });

  window.addEventListener('resize', fit);
  fit();
})();
