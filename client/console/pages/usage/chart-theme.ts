import { useEffect, useState } from 'preact/hooks';

/** Chart colours, read from the stylesheet's custom properties so charts follow the light or dark scheme. */
export interface ChartTheme {
  series: string[];
  text: string;
  grid: string;
}

const darkQuery = '(prefers-color-scheme: dark)';

/** The current chart colours, read again when the colour scheme changes. */
export function useChartTheme(): ChartTheme {
  const [theme, setTheme] = useState(readTheme);
  useEffect(() => {
    const query = matchMedia(darkQuery);
    const onChange = () => setTheme(readTheme());
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return theme;
}

function readTheme(): ChartTheme {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return {
    series: [read('--chart-1'), read('--chart-2'), read('--chart-3'), read('--chart-4')],
    text: read('--text-muted'),
    grid: read('--border'),
  };
}
