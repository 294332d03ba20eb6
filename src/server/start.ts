// The hook server's entry point (dist/server.js): the server itself lives in the shared runtime bundle.
import { serve } from "./runtime.js";

serve();
