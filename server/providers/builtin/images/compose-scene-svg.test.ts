import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeSceneSvg, type Scene } from './compose-scene-svg.js';

const scene: Scene = {
  width: 64,
  height: 48,
  background: { stops: ['#aabbcc', '#112233'], tilt: 0.2, glow: [0.3, 0.2] },
  shapes: [
    { type: 'circle', cx: 10, cy: 10, r: 5, fill: '#ff0000' },
    { type: 'polygon', points: [[0, 48], [32, 10], [64, 48]], fill: '#00ff00' },
    { type: 'rect', x: 5, y: 20, width: 10, height: 20, rx: 1, fill: '#0000ff' },
    { type: 'wave', baseline: 30, amplitude: 2, wavelength: 16, phase: 0.5, fill: '#00ffff' },
  ],
};

describe('composeSceneSvg', () => {
  it('sizes the SVG to the canvas and draws every shape', () => {
    const svg = composeSceneSvg(scene);
    assert.match(svg, /^<svg [^>]*width="64" height="48" viewBox="0 0 64 48">/);
    assert.match(svg, /<circle cx="10.0" cy="10.0" r="5.0" fill="#ff0000"/);
    assert.match(svg, /<polygon points="0.0,48.0 32.0,10.0 64.0,48.0"/);
    assert.match(svg, /<rect x="5.0" y="20.0" width="10.0" height="20.0"/);
    assert.match(svg, /<path d="M-8.0 30.0 Q/);
    assert.match(svg, /url\(#sky\)/);
    assert.ok(svg.endsWith('</svg>'));
  });

  it('leaves the background out when it is transparent and never draws text', () => {
    const svg = composeSceneSvg({ ...scene, background: undefined });
    assert.doesNotMatch(svg, /linearGradient|url\(#sky\)/);
    assert.doesNotMatch(svg, /<text/);
  });
});
