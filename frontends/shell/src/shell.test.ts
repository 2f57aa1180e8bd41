import { homePathFor, pickApp } from './pick-app';
import { normalizePath, readPrerenderInfo, sameBusiness } from './prerender-info';
import { applyInput, defaultConfig } from './runtime-config';

const base = () => 'https://shop.example/';

describe('which app (spec section 2)', () => {
  const config = { businessHosts: ['business.example.com.au'] };
  const at = (pathname: string, search = '', hostname = 'www.example.com.au') =>
    pickApp({ hostname, pathname, search }, config);

  test('admin on the business host, ?domain=business, /dashboard*, /auth; public otherwise', () => {
    expect(at('/', '', 'business.example.com.au')).toBe('dashboard');
    expect(at('/', '?domain=business')).toBe('dashboard');
    expect(at('/dashboard')).toBe('dashboard');
    expect(at('/dashboard/booking/new')).toBe('dashboard');
    expect(at('/auth')).toBe('dashboard');
    expect(at('/')).toBe('public');
    expect(at('/dashboards')).toBe('public');
    expect(at('/suburb/rockingham')).toBe('public');
    expect(at('/checkout/abc')).toBe('public');
    expect(homePathFor('dashboard', 'www.example.com.au', config)).toBe('/dashboard');
    expect(homePathFor('dashboard', 'business.example.com.au', config)).toBe('/');
  });
});

describe('runtime configuration', () => {
  test('business phone, ABN, email, site URL and Stripe key come from config.json', () => {
    const config = applyInput(
      defaultConfig(base),
      {
        businessHost: 'Business.Example.com.au, admin.example.com.au',
        siteUrl: 'https://www.example.com.au/',
        stripePublishableKey: 'pk_live_123',
        business: { phone: '+61899990000', phoneDisplay: '08 9999 0000', abn: '98 765 432 109', email: '' },
      },
      'test',
      base,
    );
    expect(config.businessHosts).toEqual(['business.example.com.au', 'admin.example.com.au']);
    expect(config.siteUrl).toBe('https://www.example.com.au');
    expect(config.stripePublishableKey).toBe('pk_live_123');
    expect(config.business).toMatchObject({ phone: '+61899990000', abn: '98 765 432 109', email: null });
    expect(config.remotes.public).toBe('https://shop.example/remotes/public/mf-manifest.json');
  });

  test('bad values are ignored', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const config = applyInput(
      defaultConfig(base),
      { siteUrl: 'not a url', stripePublishableKey: 'sk_live_secret' },
      't',
      base,
    );
    expect(config.siteUrl).toBeNull();
    expect(config.stripePublishableKey).toBeNull();
    warn.mockRestore();
  });
});

describe('prerendered pages', () => {
  test('hydrate only the page the HTML was rendered for, with the same business details', () => {
    document.body.innerHTML =
      '<script type="application/json" id="tyres-prerender">{"path":"/about","business":{"name":"A","phone":"1","phoneDisplay":null}}</script>';
    const info = readPrerenderInfo(document);
    expect(info?.path).toBe('/about');
    expect(normalizePath('/about/')).toBe('/about');
    expect(normalizePath('/')).toBe('/');
    expect(sameBusiness(info!.business, { name: 'A', phone: '1', phoneDisplay: null, abn: null })).toBe(true);
    expect(sameBusiness(info!.business, { name: 'A', phone: '2', phoneDisplay: null })).toBe(false);
  });
});
