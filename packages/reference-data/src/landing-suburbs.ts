/**
 * The 42 suburbs of the landing page's Areas section, by region, in display order, with their Australia Post
 * postcodes. One list for the booking service (its suburb_landing_pages seed) and the public site (its prerendered
 * Areas section and suburb pages), so the two can never disagree.
 *
 * Plain data, no dependencies: the public site's bundler compiles this source directly.
 */
export type Region = 'Perth Metro' | 'Peel Region' | 'Hills & Extended';

export interface Suburb {
  name: string;
  postcode: string;
  region: Region;
}

const group = (region: Region, rows: [string, string][]): Suburb[] =>
  rows.map(([name, postcode]) => ({ name, postcode, region }));

export const LANDING_SUBURBS: readonly Suburb[] = [
  ...group('Perth Metro', [
    ['Perth', '6000'],
    ['Fremantle', '6160'],
    ['Joondalup', '6027'],
    ['Scarborough', '6019'],
    ['Subiaco', '6008'],
    ['Morley', '6062'],
    ['Midland', '6056'],
    ['Cannington', '6107'],
    ['Armadale', '6112'],
    ['Rockingham', '6168'],
    ['Baldivis', '6171'],
    ['Ellenbrook', '6069'],
    ['Canning Vale', '6155'],
    ['Osborne Park', '6017'],
    ['Wanneroo', '6065'],
    ['Clarkson', '6030'],
    ['Butler', '6036'],
    ['Cockburn Central', '6164'],
    ['Success', '6164'],
    ['Victoria Park', '6100'],
    ['Belmont', '6104'],
    ['Malaga', '6090'],
    ['Thornlie', '6108'],
    ['Willetton', '6155'],
  ]),
  ...group('Peel Region', [
    ['Mandurah', '6210'],
    ['Halls Head', '6210'],
    ['Falcon', '6210'],
    ['Dawesville', '6211'],
    ['Meadow Springs', '6210'],
    ['Lakelands', '6180'],
    ['Pinjarra', '6208'],
    ['Greenfields', '6210'],
    ['Erskine', '6210'],
    ['South Yunderup', '6208'],
  ]),
  ...group('Hills & Extended', [
    ['Kalamunda', '6076'],
    ['Mundaring', '6073'],
    ['Lesmurdie', '6076'],
    ['Roleystone', '6111'],
    ['Byford', '6122'],
    ['Mount Helena', '6082'],
    ['Gidgegannup', '6083'],
    ['Bullsbrook', '6084'],
  ]),
];
