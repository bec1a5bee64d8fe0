import { definePublicScreen } from '../../commands/screens';

export const loginScreen = definePublicScreen({ id: 'login', path: 'login', title: 'auth.submit', load: () => import('.') });
definePublicScreen({ id: 'forgotPassword', path: 'password/forgot', title: 'auth.forgot.title', load: () => import('./ForgotPassword') });
// The link of an invitation or of 'Mot de passe oublié ?' (mailed, single use, 48 hours).
definePublicScreen({ id: 'choosePassword', path: 'password/choose', title: 'auth.choose.title', load: () => import('./ChoosePassword') });
