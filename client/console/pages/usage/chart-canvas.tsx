import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartConfiguration } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

// Only what the usage charts draw, so the bundle leaves the rest of Chart.js out.
Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

/**
 * A Chart.js chart on a canvas. The canvas is an image to assistive technology, named by `summary`, which
 * says in words what the chart shows; the figure around it repeats that for everyone.
 */
export function ChartCanvas({ config, summary }: { config: ChartConfiguration; summary: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, config);
    return () => chart.destroy();
  }, [config]);
  return (
    <div class="chart-box">
      <canvas ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}
