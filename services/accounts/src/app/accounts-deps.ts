import type { Clock } from "@gateway/platform";
import type { AccountsRepositories } from "./ports.js";

/** What every accounts use case needs: its stores and the time. */
export interface AccountsDeps {
  repos: AccountsRepositories;
  clock: Clock;
}
