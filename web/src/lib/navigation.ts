/**
 * Navigation from outside React components (a 401 in the HTTP client, a refused token
 * refresh). The router registers itself at start.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigator: Navigate = (to) => {
  window.location.assign(to);
};

export function setNavigator(next: Navigate): void {
  navigator = next;
}

export function navigateTo(to: string, options: { replace?: boolean } = {}): void {
  navigator(to, options);
}
