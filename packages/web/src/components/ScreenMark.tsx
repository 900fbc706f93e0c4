import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * Writes the route whose screen has just been committed on `<html data-screen>`, once per navigation
 * (the location's key). Browser journeys that move inside the app wait on it: after an in-app
 * navigation the previous screen may stay on show while the next one's code loads, so neither the URL
 * nor a visible heading alone says the guard has decided.
 */
export function ScreenMark({ route }: { route: string }) {
  const { key } = useLocation();
  useEffect(() => {
    document.documentElement.dataset.screen = `${route} ${key}`;
  }, [route, key]);
  return null;
}
