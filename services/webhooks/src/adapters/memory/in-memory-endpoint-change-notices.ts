import type { EndpointChangeNotices } from "../../app/ports.js";
import type { AccountScope } from "../../domain/account-scope.js";

/**
 * Endpoint change notices between replicas in one process (tests of several replicas): each
 * `replica()` hears what the others announce, at once, never its own.
 */
export class InMemoryEndpointChangeHub {
  private readonly listeners = new Set<{ from: object; onChange: (scope: AccountScope) => void }>();

  replica(): EndpointChangeNotices {
    const self = {};
    return {
      announce: (scope) => {
        for (const listener of [...this.listeners])
          if (listener.from !== self) listener.onChange({ ...scope });
      },
      listen: (onChange) => {
        const listener = { from: self, onChange };
        this.listeners.add(listener);
        return () => {
          this.listeners.delete(listener);
        };
      },
    };
  }
}
