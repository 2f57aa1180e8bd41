import { Router } from 'express';
import { parseOr400, requireAdmin } from '@tyres/service-kit';
import type { Expenses } from '../app/expenses';
import { identityOf, idParam } from './params';
import { createExpenseSchema, listExpensesQuery, updateExpenseSchema } from './schemas';
import { expenseDto } from './serialize';

const NOT_FOUND = 'Expense not found';

/** /api/dashboard/business-expenses: admin only (the gateway enforces it too). */
export function expenseRoutes(expenses: Expenses): Router {
  const r = Router();
  r.use(requireAdmin);

  r.get('/', async (req, res) => {
    const q = parseOr400(listExpensesQuery, req.query);
    const paid = q.isPaid ?? q.paid;
    const isPaid =
      paid === 'true' || paid === 'paid' ? true : paid === 'false' || paid === 'unpaid' ? false : undefined;
    const list = await expenses.list({
      ...(q.category ? { category: q.category } : {}),
      ...(isPaid !== undefined ? { isPaid } : {}),
    });
    res.json(list.map(expenseDto));
  });

  r.get('/:id', async (req, res) => {
    res.json(expenseDto(await expenses.get(idParam(req, 'id', NOT_FOUND))));
  });

  r.post('/', async (req, res) => {
    const body = parseOr400(createExpenseSchema, req.body ?? {});
    const created = await expenses.create(
      {
        supplierName: body.supplierName,
        invoiceNumber: body.invoiceNumber,
        description: body.description,
        amount: body.amount,
        gstFree: body.gstFree,
        category: body.category,
        expenseDate: body.expenseDate,
        dueDate: body.dueDate,
        isPaid: body.isPaid,
        notes: body.notes,
      },
      identityOf(req),
    );
    res
      .status(201)
      .json({ success: true, message: 'Expense created successfully', expense: expenseDto(created) });
  });

  r.patch('/:id/mark-paid', async (req, res) => {
    const updated = await expenses.markPaid(idParam(req, 'id', NOT_FOUND));
    res.json({ success: true, message: 'Expense marked as paid', expense: expenseDto(updated) });
  });

  r.patch('/:id', async (req, res) => {
    const id = idParam(req, 'id', NOT_FOUND);
    const body = parseOr400(updateExpenseSchema, req.body ?? {});
    const patch = Object.fromEntries(
      Object.entries({
        supplierName: body.supplierName,
        invoiceNumber: body.invoiceNumber,
        description: body.description,
        amount: body.amount,
        gstFree: body.gstFree,
        category: body.category,
        expenseDate: body.expenseDate,
        dueDate: body.dueDate,
        isPaid: body.isPaid,
        notes: body.notes,
      }).filter(([, v]) => v !== undefined),
    );
    const updated = await expenses.update(id, patch);
    res.json({ success: true, message: 'Expense updated successfully', expense: expenseDto(updated) });
  });

  r.delete('/:id', async (req, res) => {
    await expenses.remove(idParam(req, 'id', NOT_FOUND), identityOf(req));
    res.json({ success: true, message: 'Expense deleted successfully' });
  });

  return r;
}
