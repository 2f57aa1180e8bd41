import '../testing/polyfills';
import { act, render, screen } from '@testing-library/react';
import { CallFab, priceAndActionElements } from './CallFab';

/** An IntersectionObserver stand-in (jsdom has none): records what it watches and lets the test move things. */
class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly targets = new Set<Element>();
  disconnected = false;
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.disconnected = true;
    this.targets.clear();
  }
  takeRecords() {
    return [];
  }
  /** Reports `target` as under the button (or no longer under it). */
  move(target: Element, isIntersecting: boolean) {
    act(() =>
      this.callback(
        [{ target, isIntersecting } as IntersectionObserverEntry],
        this as unknown as IntersectionObserver,
      ),
    );
  }
  static get live(): FakeIntersectionObserver {
    const live = FakeIntersectionObserver.instances.filter((o) => !o.disconnected);
    return live[live.length - 1]!;
  }
}

const original = {
  io: (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver,
  rect: HTMLElement.prototype.getBoundingClientRect,
};

beforeEach(() => {
  FakeIntersectionObserver.instances = [];
  (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeIntersectionObserver;
  // A 390 x 844 phone; the button is 60 px round, 16 px from the right and bottom edges.
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 390 });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: 844 });
  HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
    if (this.classList.contains('pub-fab'))
      return {
        top: 768,
        bottom: 828,
        left: 314,
        right: 374,
        width: 60,
        height: 60,
        x: 314,
        y: 768,
      } as DOMRect;
    return original.rect.call(this);
  };
});

afterEach(() => {
  (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = original.io;
  HTMLElement.prototype.getBoundingClientRect = original.rect;
});

function Page() {
  return (
    <main>
      <p>All prices include GST.</p>
      <dl>
        <dt>Card surcharge (1.7%)</dt>
        <dd data-testid="surcharge">$4.40</dd>
      </dl>
      <button type="submit">Pay $263.20</button>
      <a className="pub-btn pub-btn--primary" href="/book">
        Book Now
      </a>
      <CallFab phone="+61855501234" phoneText="08 5550 1234" />
    </main>
  );
}

describe('floating call button (issue 12: no floating control may hide a price)', () => {
  test('watches every price and button on the page, in a box the size of the button', () => {
    render(<Page />);
    const observer = FakeIntersectionObserver.live;
    // top: 768 - 8, right: 390 - 374 - 8, bottom: 844 - 828 - 8, left: 314 - 8 (8 px clearance)
    expect(observer.options.rootMargin).toBe('-760px -8px -8px -306px');
    const watched = [...observer.targets].map((el) => el.textContent);
    expect(watched).toEqual(expect.arrayContaining(['$4.40', 'Pay $263.20', 'Book Now']));
    expect(watched).not.toContain('All prices include GST.');
    expect(watched).not.toContain('Card surcharge (1.7%)');
  });

  test('steps aside while a price is under it, and comes back once it has scrolled past', () => {
    render(<Page />);
    const fab = screen.getByRole('link', { name: 'Call now on 08 5550 1234' });
    expect(fab).not.toHaveClass('pub-fab--aside');
    const observer = FakeIntersectionObserver.live;
    const price = screen.getByTestId('surcharge');
    observer.move(price, true);
    expect(fab).toHaveClass('pub-fab--aside');
    expect(fab).toHaveAttribute('tabindex', '-1');
    observer.move(screen.getByRole('button', { name: 'Pay $263.20' }), true);
    observer.move(price, false);
    expect(fab).toHaveClass('pub-fab--aside'); // the pay button is still under it
    observer.move(screen.getByRole('button', { name: 'Pay $263.20' }), false);
    expect(fab).not.toHaveClass('pub-fab--aside');
    expect(fab).not.toHaveAttribute('tabindex');
  });

  test('a price that appears later (a quote arriving) is watched too', async () => {
    const view = render(<Page />);
    view.rerender(
      <>
        <Page />
        <p data-testid="later">Total to pay now: $99.80</p>
      </>,
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 120)));
    const watched = [...FakeIntersectionObserver.live.targets].map((el) => el.textContent);
    expect(watched).toContain('Total to pay now: $99.80');
  });

  test('finds prices by what they show, not by a marker', () => {
    document.body.innerHTML =
      '<div><span>From $139 per tyre</span><span>Fast, friendly</span><em>$ 40</em><a class="fab">$1</a></div>';
    const fab = document.querySelector('.fab');
    const texts = priceAndActionElements(document.body, fab).map((el) => el.textContent);
    expect(texts).toEqual(['From $139 per tyre', '$ 40']);
  });
});
