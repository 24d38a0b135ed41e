// Move sounds, made with WebAudio (no sound file, so no licence to carry): off until the reader
// turns them on with the page's toggle, the choice remembered in localStorage. The page plays a
// sound only for a move that arrives while it is open, never for the moves of a first load or
// a catch-up (those come as a full state). Nothing is created before the toggle is on: no
// AudioContext, hence no autoplay.

const STORAGE_KEY = 'kibitz.sound';

/** Each sound: notes as [frequency Hz, start s, length s], a wave, a loudness. */
const SOUNDS = {
  move: { wave: 'triangle', gain: 0.25, notes: [[520, 0, 0.08]] },
  capture: {
    wave: 'square',
    gain: 0.12,
    notes: [
      [300, 0, 0.06],
      [220, 0.05, 0.09],
    ],
  },
  check: {
    wave: 'triangle',
    gain: 0.25,
    notes: [
      [880, 0, 0.07],
      [880, 0.1, 0.07],
    ],
  },
  end: {
    wave: 'sine',
    gain: 0.25,
    notes: [
      [523, 0, 0.18],
      [659, 0.12, 0.18],
      [784, 0.24, 0.3],
    ],
  },
};

/** Which sound a move makes (its SAN): check over capture over a plain move. */
export function soundOfMove(san) {
  if (/[+#]$/.test(san)) return 'check';
  return san.includes('x') ? 'capture' : 'move';
}

function stored() {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

function store(on) {
  try {
    localStorage.setItem(STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // A browser that keeps nothing (private mode, storage off): the toggle still works on this page.
  }
}

/** Wires the toggle button; returns `play(name)`, which does nothing while sounds are off. */
export function setupSound(button) {
  let on = stored();
  let context = null;
  // The label stays; aria-pressed (and the style it gives) says whether sounds are on.
  const show = () => button.setAttribute('aria-pressed', String(on));
  // A browser lets a page's audio start only after a gesture on it: a reload with sounds on waits
  // for the first click or key.
  const wake = () => void context?.resume();
  document.addEventListener('pointerdown', wake);
  document.addEventListener('keydown', wake);
  button.addEventListener('click', () => {
    on = !on;
    store(on);
    show();
    if (on) {
      context ??= new AudioContext();
      wake();
    }
  });
  show();
  return (name) => {
    const sound = SOUNDS[name];
    if (!on || !sound) return;
    context ??= new AudioContext();
    const start = context.currentTime;
    for (const [frequency, at, length] of sound.notes) {
      const oscillator = new OscillatorNode(context, { type: sound.wave, frequency });
      const gain = new GainNode(context, { gain: 0 });
      // A short rise and an exponential fall: no click at either end.
      gain.gain.setValueAtTime(0, start + at);
      gain.gain.linearRampToValueAtTime(sound.gain, start + at + 0.005);
      gain.gain.exponentialRampToValueAtTime(0.001, start + at + length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start + at);
      oscillator.stop(start + at + length + 0.02);
    }
  };
}
