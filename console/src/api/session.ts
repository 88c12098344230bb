// The signed-in token, kept in this tab's sessionStorage only (PRODUCT.md §2b): gone on sign-out
// or when the tab closes; never in localStorage, a cookie or the URL.
const TOKEN_KEY = 'privacy-console.token';
const NOTICE_KEY = 'privacy-console.notice';

export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function saveToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  sessionStorage.removeItem(NOTICE_KEY);
}

/** Signs out: forgets the token; `notice` (if any) is shown on the sign-in page. */
export function clearToken(notice?: string): void {
  sessionStorage.removeItem(TOKEN_KEY);
  if (notice) sessionStorage.setItem(NOTICE_KEY, notice);
}

/** The message left for the sign-in page, read once. */
export function takeNotice(): string | null {
  const notice = sessionStorage.getItem(NOTICE_KEY);
  sessionStorage.removeItem(NOTICE_KEY);
  return notice;
}
