// The student area's frame and home page, a script of their own (router.tsx, decision 020): `/` for a
// visitor who is not signed in loads only this before the guard sends them to /login.
export { StudentLayout } from './student-layout.tsx';
export { HomePage } from '../features/home/home-page.tsx';
