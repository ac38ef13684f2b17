import { startServer } from './server.ts';

/** `npm start`: the server on the configuration of the environment (server.ts). */
startServer();
