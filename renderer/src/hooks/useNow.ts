import { useEffect, useState } from 'react';

/** The time now, re-rendered every `ms`, so relative times ("2 min ago") stay true. */
export function useNow(ms: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}
