/**
 * The console's language: the browser's (`navigator.languages`) until the person picks another in
 * the switcher, which is remembered on the device. Dates and money are written by `Intl` in the
 * same language.
 */
import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { format, LANGUAGES, type Language, languageOf, MESSAGES, type MessageKey } from './messages.ts';

const STORAGE_KEY = 'convene.console.language';

export interface I18n {
  language: Language;
  setLanguage(language: Language): void;
  t(key: MessageKey, values?: Record<string, string | number>): string;
  /** An instant as a date and time in the person's time zone. */
  when(iso: string): string;
  /** Minor units of `currency` as money; null currency is free. */
  money(cents: number, currency: string | null): string;
}

const Context = createContext<I18n | null>(null);

function initialLanguage(): Language {
  const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
  if (stored !== null && stored !== undefined && (LANGUAGES as readonly string[]).includes(stored)) {
    return stored as Language;
  }
  return languageOf(navigator.languages ?? [navigator.language]);
}

/** Digits after the decimal point of `currency` (2 for BRL, 0 for CLP). */
export function minorDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

export function I18nProvider({ children }: { children: ComponentChildren }) {
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const value = useMemo<I18n>(() => {
    const messages = MESSAGES[language];
    const dates = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    return {
      language,
      setLanguage(next) {
        globalThis.localStorage?.setItem(STORAGE_KEY, next);
        setLanguageState(next);
      },
      t: (key, values) => format(messages[key], values),
      when: (iso) => dates.format(new Date(iso)),
      money(cents, currency) {
        if (currency === null || cents === 0) return messages.free;
        const amount = cents / 10 ** minorDigits(currency);
        return new Intl.NumberFormat(language, { style: 'currency', currency }).format(amount);
      },
    };
  }, [language]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(Context);
  if (value === null) throw new Error('useI18n outside I18nProvider');
  return value;
}
