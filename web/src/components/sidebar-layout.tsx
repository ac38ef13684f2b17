import { useState, type ReactNode } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { useTranslation } from '../lib/i18n.ts';
import { useModalDialog } from './dialog.tsx';
import { LanguageSwitch } from './language-switch.tsx';

export interface NavItem {
  to: string;
  label: string;
  icon?: ReactNode;
  /** Said to screen readers after the label, e.g. "complete". */
  note?: string;
  end?: boolean;
}

/**
 * The signed-in areas' frame: a fixed sidebar on desktops and a slide-over on phones, with
 * the user's name and Sign out at the foot.
 */
export function SidebarLayout({
  title,
  items,
  userName,
  onSignOut,
  footer,
}: {
  title: string;
  items: NavItem[];
  userName: string;
  onSignOut: () => void;
  footer?: ReactNode;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // Going to another page closes the slide-over (state adjusted during render, not in an effect).
  const { pathname } = useLocation();
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }

  const nav = (
    <nav aria-label={t('nav.label')} className="flex h-full flex-col">
      <div className="px-4 py-5 text-lg font-bold text-white">{title}</div>
      <ul className="flex-1 space-y-1 px-2">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end ?? false}
              className={({ isActive }) =>
                `flex items-center gap-3 rounded-md px-3 py-2 text-base font-medium ${isActive ? 'bg-blue-950 text-white' : 'text-blue-50 hover:bg-blue-800'}`
              }
            >
              {item.icon}
              <span>{item.label}</span>
              {item.note && <span className="sr-only">({item.note})</span>}
            </NavLink>
          </li>
        ))}
      </ul>
      <div className="border-t border-blue-800 px-4 py-4 text-blue-50">
        <p className="text-sm">{t('nav.signedInAs')}</p>
        <p className="truncate font-semibold text-white">{userName}</p>
        <button
          type="button"
          onClick={onSignOut}
          className="mt-3 w-full rounded-md border border-blue-300 px-3 py-2 text-sm font-semibold text-white hover:bg-blue-800"
        >
          {t('nav.signOut')}
        </button>
      </div>
    </nav>
  );

  return (
    <div className="min-h-screen lg:flex">
      {/*
        On desktops the sidebar is a column of the page, as tall as the page however long it is; its
        nav stays in view while the page scrolls and scrolls on its own when taller than the window
        (a fixed sidebar of the window's height left its background and last items, Sign out among
        them, out of reach on a short window: decision 061).
      */}
      <div data-testid="sidebar" className="hidden bg-blue-900 lg:block lg:w-64 lg:shrink-0">
        <div className="lg:sticky lg:top-0 lg:h-screen lg:overflow-y-auto">{nav}</div>
      </div>
      <MenuDrawer open={open} onClose={() => setOpen(false)} label={t('nav.menu')} closeLabel={t('nav.close')}>
        {nav}
      </MenuDrawer>
      <div className="flex min-h-screen min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-3">
          <button
            type="button"
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold lg:hidden"
            aria-expanded={open}
            aria-haspopup="dialog"
            onClick={() => setOpen(true)}
          >
            {t('nav.menu')}
          </button>
          <span className="truncate font-semibold lg:hidden">{title}</span>
          {/* Spec 1: the translation widget (en, es) */}
          <LanguageSwitch className="ml-auto" />
        </header>
        <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-6 sm:px-6 lg:px-8">
          <Outlet />
        </main>
        {footer}
      </div>
    </div>
  );
}

/**
 * The phone menu on the native modal <dialog> (decision 021): focus goes inside, Tab stays inside,
 * Escape, the close button or a tap beside it closes it, and the page behind is inert. Closing
 * gives the focus back to the Menu button (the browser does this for showModal).
 */
function MenuDrawer({
  open,
  onClose,
  label,
  closeLabel,
  children,
}: {
  open: boolean;
  onClose: () => void;
  label: string;
  closeLabel: string;
  children: ReactNode;
}) {
  const ref = useModalDialog(open);
  return (
    // The backdrop tap is a pointer's convenience; the keyboard has Escape and the close button.
    // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events, jsx-a11y-x/no-noninteractive-element-interactions
    <dialog
      ref={ref}
      aria-label={label}
      onClose={onClose}
      // A tap on the backdrop lands on the <dialog> itself, not on anything inside it.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className="m-0 h-full max-h-none w-72 max-w-[85%] bg-blue-900 p-0 backdrop:bg-slate-900/60 lg:hidden"
    >
      {open && (
        <div className="flex h-full flex-col">
          <div className="flex justify-end px-2 pt-2">
            <button
              type="button"
              onClick={onClose}
              aria-label={closeLabel}
              className="rounded-md px-3 py-1 text-2xl leading-none text-white hover:bg-blue-800"
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
        </div>
      )}
    </dialog>
  );
}
