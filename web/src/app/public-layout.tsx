import { Link, Outlet } from 'react-router';
import { LanguageSwitch } from '../components/language-switch.tsx';
import { useSchoolName } from '../lib/queries.ts';
import { SupportFooter } from './support-footer.tsx';

/** The frame of the pages anyone can open: school name, language switch, support address. */
export function PublicLayout() {
  const schoolName = useSchoolName();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-3xl items-center gap-3 px-4 py-3">
          <Link to="/login" className="text-lg font-bold text-blue-900">
            {schoolName}
          </Link>
          <LanguageSwitch className="ml-auto" />
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-8">
        <Outlet />
      </main>
      <SupportFooter />
    </div>
  );
}
